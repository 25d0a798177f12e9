import Foundation

/// One spelling for text from outside that becomes an identity key in the store.
///
/// Swift `String` equality is canonical equivalence ("Café" with U+00E9 equals "Cafe" + U+0301);
/// SQLite's UNIQUE and PRIMARY KEY compare bytes. A key that can arrive in two canonically
/// equivalent spellings is then two rows to the store and one key to Swift: two rows for one
/// source, and a `Dictionary` over them that merges them or (with `uniqueKeysWithValues`) traps.
/// Brought to NFC where it enters, every spelling of a key is the same bytes, so the two
/// equalities agree.
///
/// Where it applies: imported source names and origins (`ImportService.source(of:)`, which builds
/// `@import/<origin>/<name>`). App ids need no spelling: they are ASCII (`AppIDRule`). Text kept
/// as data — device fields, metadata keys and values, sync identifiers — is stored as the app
/// wrote it, as HealthKit returns it (SECURITY.md, "Identity keys from outside text").
public enum IdentityKeyText {
    /// `text` in Unicode Normalization Form C (canonical composition).
    public static func oneSpelling(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping
    }
}
