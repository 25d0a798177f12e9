/// The access log's actors that are no app: the user's manager tool, healthd itself, a refused
/// process that is no installed app. An entry's actor is one of these or an app id, in one
/// column, so the two name spaces must never meet: an app installed as `manager` had its reads
/// logged exactly as the user's own browsing (redteam23 F1).
///
/// Every non-app actor is a case here, and `AppIDRule` refuses every case as an app id — by its
/// reverse-DNS shape (these names have no '.') and by name, so a case added later, whatever its
/// spelling, is refused too (`AppIDRuleTests` checks each case).
public enum NonAppActor: String, CaseIterable, Sendable {
    /// The user's own manager tool (`healthctl`, on the admin socket).
    case manager
    /// healthd, for what it does on its own (background launches).
    case broker = "healthd"
    /// A refused connection from a process that is no installed app.
    case unidentified
}
