import GRDB

/// What v71 does with identity keys an older version stored in two spellings (SECURITY.md,
/// "Identity keys from outside text"): import sources merged into their NFC spelling
/// (`ImportSourceSpellings`), app ids outside ASCII kept apart under their escaped spelling
/// (`LookalikeAppIDs`). Returns one sentence per change for the user.
enum KeySpellingUpgrade {
    static func run(_ db: Database) throws -> [String] {
        try ImportSourceSpellings.merge(db) + LookalikeAppIDs.keepApart(db)
    }

    /// `key` with every scalar outside printable ASCII written `\u{XXXX}` (`AppIDRule.spelled`'s
    /// form, without its 128-scalar cut: a rewritten key must stay as distinct as the original).
    static func escaped(_ key: String) -> String {
        key.unicodeScalars.map { scalar in
            (0x20 ... 0x7E).contains(scalar.value) ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }.joined()
    }
}
