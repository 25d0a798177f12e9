import Foundation

/// What an app's display name may not be: a name that passes for another party's. The display
/// name is the app's to choose, and it is what people read where the app is shown as a source —
/// `healthctl samples`, per-object prompts, other apps' `HKSource.name` — so an app named "Health"
/// had its samples shown exactly as the user's own entries (redteam23 F5). Refused, compared in
/// `comparisonKey` form:
///
/// - the user's own source name (`SourceRecord.user`, "Health"): in `AppManifest.problems`, so at
///   install and, through `InstalledManifestCheck`, for a manifest an older version installed;
/// - another installed app's display name: by `AppRepository.install`, in the install's own
///   write transaction (the only place every installed name is known).
///
/// Look-alikes from other scripts (a Cyrillic "Неalth") are not folded: that needs the Unicode
/// confusables data. healthctl therefore never relies on the name alone: its tables show an app's
/// source with its id and the user's own as theirs (`SourceLabel`).
public enum DisplayNameRule {
    /// The form two names are compared in: compatibility-normalized (NFKC: full-width, ligature,
    /// mathematical and other compatibility forms become their plain letters), case-folded
    /// (upper-casing first, so "ß" and "SS" meet), with invisible characters (default-ignorable
    /// code points: zero-width space and joiners, soft hyphen, variation selectors) removed and
    /// each run of white space one space, none at either end.
    public static func comparisonKey(_ name: String) -> String {
        let folded = name.precomposedStringWithCompatibilityMapping.uppercased().lowercased().precomposedStringWithCompatibilityMapping
        var scalars = String.UnicodeScalarView()
        var spaceOwed = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isDefaultIgnorableCodePoint { continue }
            if scalar.properties.isWhitespace {
                spaceOwed = !scalars.isEmpty
                continue
            }
            if spaceOwed { scalars.append(" ") }
            spaceOwed = false
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Whether two display names are the same name to a reader.
    public static func same(_ one: String, _ other: String) -> Bool {
        comparisonKey(one) == comparisonKey(other)
    }

    /// The problem sentence for a display name that is the user's own source name; nil if it is not.
    public static func userNameProblem(_ displayName: String) -> String? {
        guard same(displayName, SourceRecord.user.name) else { return nil }
        return "displayName must not be '\(SourceRecord.user.name)' in any case or form: it is the name your own entries show under, "
            + "so the app's samples would pass for yours"
    }

    /// The refusal for installing `displayName` for `appID` while `other` (another installed app)
    /// has the same name.
    public static func clashMessage(_ displayName: String, otherAppID: String, otherDisplayName: String) -> String {
        "displayName '\(TerminalControlCharacters.escaped(String(displayName.prefix(128))))' is the name of the installed app "
            + "\(AppIDRule.spelled(otherAppID)) ('\(TerminalControlCharacters.escaped(String(otherDisplayName.prefix(128))))'), "
            + "compared ignoring case and compatibility forms: one app would pass for the other where apps are shown by name. "
            + "Give the app another displayName"
    }
}
