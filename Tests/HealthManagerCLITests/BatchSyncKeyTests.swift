import AppleHealthExport
@testable import HealthManagerCLI
import Testing

/// An open batch keeps a record whose sync identifier it holds already out of it
/// (`ImportPipeline.add`), by a compact key (`BatchSyncKey`). The key must be one-to-one with the
/// identifier: two records are one only when their identifiers are equal, or a record would be
/// dropped from the import as a duplicate it is not.
@Suite(.timeLimit(.minutes(10))) struct BatchSyncKeyTests {
    static let prefix = ExportConversion.syncPrefix

    /// Generated identifiers: the import's own form with every hex digit in every position, and
    /// near misses (upper case, a short or long digest, another prefix, non-hex, NUL, non-ASCII).
    static func identifiers() -> [String] {
        var result: [String] = []
        let digits = Array("0123456789abcdef")
        for position in 0 ..< 32 {
            for digit in digits {
                var hex = Array(repeating: Character("0"), count: 32)
                hex[position] = digit
                result.append(prefix + String(hex))
            }
        }
        let sample = "0123456789abcdef0123456789abcdef"
        result += [
            prefix + sample.uppercased(), prefix + "0123456789ABCDEF0123456789abcdef", prefix + String(sample.dropLast()),
            prefix + sample + "0", "apple-health-import;" + sample, sample, prefix + "0123456789abcdeg0123456789abcdef",
            prefix + "0123456789abcde\u{0}0123456789abcdef", prefix + "0123456789abcdé0123456789abcdef", "", prefix,
            "apple-health-import:clinical/abc", String(repeating: "f", count: 52),
        ]
        return result
    }

    @Test func twoIdentifiersAreOneKeyExactlyWhenTheyAreEqual() {
        let identifiers = Self.identifiers()
        var seen: [BatchSyncKey: String] = [:]
        for identifier in identifiers {
            let key = BatchSyncKey(identifier)
            #expect(key == BatchSyncKey(identifier))
            if let earlier = seen[key] {
                #expect(earlier == identifier, "\(earlier) and \(identifier) share a key")
            }
            seen[key] = identifier
        }
        #expect(seen.count == Set(identifiers).count)
    }

    /// The import's own identifiers take the compact form; anything else is kept as text.
    @Test func onlyTheImportsOwnFormIsADigest() {
        let digest = BatchSyncKey(Self.prefix + "00000000000000010000000000000002")
        #expect(digest == .digest(1, 2))
        #expect(BatchSyncKey(Self.prefix + "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF") == .text(Self.prefix + "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"))
        #expect(BatchSyncKey(Self.prefix + "ffffffffffffffffffffffffffffffff") == .digest(.max, .max))
    }
}
