/// What an app id may be: reverse-DNS, as a bundle identifier is — 1–128 ASCII letters, digits,
/// '-' or '_' in two or more non-empty parts joined by '.', not starting with '-' — and no name
/// the access log gives a non-app actor (`NonAppActor`). The one rule, checked by Unicode scalar.
///
/// An app id is an identity key: the store compares it by bytes (the `apps` primary key, grants,
/// sources), Swift compares `String`s by canonical equivalence. Outside ASCII the two disagree —
/// `com.example.\u{212A}eep` (KELVIN SIGN) is a different row from `com.example.Keep` but the same
/// Swift string, and shows exactly like it in `apps list`, grants and consent prompts — so an
/// app could pass for another. Inside ASCII every character is its own only spelling, so byte
/// equality, Swift equality and what the user reads agree. (A `Set<Character>` check is not
/// enough: `Character("\u{212A}") == "K"`.) A leading '-' would be read as an option where the
/// id is a command-line argument (`health-sandbox agent run ID --socket …`); a leading '.' makes
/// a hidden or relative file name (the id names the app's data folder and log).
///
/// The '.' keeps app ids apart from every name that is no app's: the access log's actors
/// (`manager`, `healthd`, `unidentified` — an app installed as `manager` had its reads logged
/// exactly as the user's own browsing, redteam23 F1) and any such name added later, which the
/// rule also refuses by name (`NonAppActor`), dotted or not. Sources that are no app's start
/// with '@' (`@user`, `@import/…`), which no id holds.
///
/// `AppManifest.problems` applies it at install and, through `InstalledManifestCheck`, to a
/// manifest installed before it whenever that manifest would become an app's identity; the launch
/// agent applies it to the ids it is asked to launch and to its per-app options.
public enum AppIDRule {
    public static let maximumLength = 128

    /// The sentence a refusal carries: what an id may be.
    public static let message = "id must be reverse-DNS like com.example.steps: at most 128 ASCII letters, digits, '-' or '_' "
        + "in two or more non-empty parts joined by '.', not starting with '-', and none of the access log's own actor names ("
        + NonAppActor.allCases.map(\.rawValue).joined(separator: ", ") + ")"

    public static func isValid(_ id: String) -> Bool {
        let scalars = id.unicodeScalars
        guard let first = scalars.first, first != "-", scalars.count <= maximumLength, scalars.allSatisfy(allowed) else { return false }
        // Reverse-DNS: at least two parts, none empty (no leading, trailing or doubled '.').
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else { return false }
        return NonAppActor(rawValue: id) == nil
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30 ... 0x39, 0x41 ... 0x5A, 0x61 ... 0x7A: true  // 0-9 A-Z a-z
        case 0x2D, 0x2E, 0x5F: true  // - . _
        default: false
        }
    }

    /// `id` as a refusal shows it: printable ASCII as is, every other scalar as `\u{XXXX}`, so a
    /// look-alike shows what makes it one (`com.example.\u{212A}eep`); at most 128 scalars.
    public static func spelled(_ id: String) -> String {
        id.unicodeScalars.prefix(maximumLength).map { scalar in
            (0x20 ... 0x7E).contains(scalar.value) ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }.joined()
    }
}
