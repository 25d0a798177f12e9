import HealthModel

/// How healthctl names a sample's source wherever the user reads it (the `samples` table, the
/// candidates of a per-object read request, the report): by its name *and* who it is, from the
/// store's key for it, which no app chooses. An app names itself (its manifest's display name),
/// so a name alone can pass for another party's — an app named "Health" was shown exactly as
/// the user's own entries (redteam23 F5). So:
///
/// - an app's source is `NAME (APP-ID)`: the id is the installed one, reverse-DNS (it holds a
///   '.') and ASCII (`AppIDRule`; an id an older version let in is spelled with `\u{…}`);
/// - the user's own (`@user`) is `Health (you)`: no app id is `you`;
/// - an import's is its stored name, `NAME (ORIGIN)` (`ImportService`).
///
/// Every app's label ends with its id, which no other party's label does. `DisplayNameRule`
/// also refuses, at install, a display name that is the user's or another app's.
enum SourceLabel {
    static func text(_ source: SourceRecord?) -> String {
        guard let source else { return "" }
        let key = source.bundleIdentifier
        if key == SourceRecord.user.bundleIdentifier { return "\(SourceRecord.user.name) (you)" }
        // Sources that are no app's (`@import/…`) are named by healthd, not by an app.
        if key.hasPrefix("@") { return source.name.isEmpty ? key : source.name }
        let id = AppIDRule.spelled(key)
        return source.name.isEmpty ? id : "\(source.name) (\(id))"
    }
}
