import Foundation
import Testing

@testable import HealthStore

/// `store.keys` names its own scrypt parameters and is read before anything authenticates it, so
/// a writer of the store folder chooses what an unlock costs. Every parameter past its bound
/// (`PasscodeKDF+Bounds`), one at a time, in `current` and in `pending`, is refused at once with
/// `keyDerivationOutOfBounds` naming the file — scrypt never runs (the passcode given is the
/// right one, so nothing else can refuse it). One scrypt in all: the store is made once.
@Suite(.timeLimit(.minutes(10))) struct KeyDerivationBoundsTests {
    struct Crafted: CustomStringConvertible {
        var field: String
        var value: String
        /// The parameter the refusal must name.
        var named: String
        var description: String { "\(field) = \(value)" }
    }

    /// Each value past one bound; the others stay the defaults (N 2^17, r 8, p 1).
    static let crafted: [Crafted] = [
        Crafted(field: "n", value: "0", named: "N"),
        Crafted(field: "n", value: "1", named: "N"),
        Crafted(field: "n", value: "131071", named: "N"),                 // not a power of two
        Crafted(field: "n", value: "2097152", named: "N"),                // 2^21
        Crafted(field: "n", value: "1099511627776", named: "N"),          // 2^40: 1 PiB of memory
        Crafted(field: "n", value: "9223372036854775808", named: "N"),    // 2^63: 128·N·r overflows
        Crafted(field: "n", value: "18446744073709551615", named: "N"),   // UInt64.max
        Crafted(field: "r", value: "0", named: "r"),
        Crafted(field: "r", value: "33", named: "r"),
        Crafted(field: "r", value: "4294967295", named: "r"),             // UInt32.max
        Crafted(field: "p", value: "0", named: "p"),
        Crafted(field: "p", value: "17", named: "p"),
        Crafted(field: "p", value: "4294967295", named: "p"),
    ]

    static let passcode = "correct horse"

    /// The store.keys text with `field` of the passcode wrap under `wrap` set to `value`.
    static func replacing(_ field: String, with value: String, in text: String) throws -> String {
        let pattern = "\"\(field)\" : "
        guard let range = text.range(of: pattern) else { throw CocoaError(.fileReadCorruptFile) }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        return text.replacingCharacters(in: range.upperBound..<digits.endIndex, with: value)
    }

    static func expectRefusal(_ directory: TemporaryDirectory, naming parameter: String, _ comment: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let started = ContinuousClock.now
        do throws(StoreOpenError) {
            let store = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode(passcode))
            try? store.close()
            Issue.record("\(comment): opened", sourceLocation: sourceLocation)
        } catch {
            guard case let .keyDerivationOutOfBounds(path, named, _, bound) = error else {
                Issue.record("\(comment): \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(path == directory.file("store.keys"), sourceLocation: sourceLocation)
            #expect(named.hasPrefix(parameter), "\(comment): named \(named)", sourceLocation: sourceLocation)
            #expect(!bound.isEmpty && error.description.contains(path), sourceLocation: sourceLocation)
        }
        // Refused before scrypt: far below one derivation at the defaults.
        #expect(ContinuousClock.now - started < .seconds(2), "\(comment)", sourceLocation: sourceLocation)
    }

    @Test func everyParameterPastItsBoundIsRefusedBeforeScryptRuns() throws {
        let directory = try KeyRotationTests.makeStore(rows: 1)
        try StorePasscode.set(directory: directory.path, passcode: Passcode(Self.passcode))
        let keys = directory.file("store.keys")
        let original = String(decoding: StoreFiles.read(keys), as: UTF8.self)
        try #require(original.contains("\"n\" : 131072"))
        for crafted in Self.crafted {
            StoreFiles.write(keys, Array(try Self.replacing(crafted.field, with: crafted.value, in: original).utf8))
            Self.expectRefusal(directory, naming: crafted.named, "current \(crafted)")
        }
        // Within each bound alone but not together: 128·N·r past 1 GiB, N·r·p past eight defaults.
        let memory = try Self.replacing("r", with: "32", in: Self.replacing("n", with: "1048576", in: original))
        StoreFiles.write(keys, Array(memory.utf8))
        Self.expectRefusal(directory, naming: "memory", "N 2^20, r 32")
        let work = try Self.replacing("p", with: "16", in: Self.replacing("n", with: "1048576", in: original))
        StoreFiles.write(keys, Array(work.utf8))
        Self.expectRefusal(directory, naming: "work", "N 2^20, r 8, p 16")

        StoreFiles.write(keys, Array(original.utf8))
        #expect(try KeyRotationTests.rowCount(directory, passcode: Passcode(Self.passcode)) == 1)
    }

    /// A rotation's `pending` wrap is read at every open too (DataKeyResolver settles it).
    @Test func aPendingWrapPastItsBoundIsRefusedToo() throws {
        let directory = try KeyRotationTests.makeStore(rows: 1)
        try StorePasscode.set(directory: directory.path, passcode: Passcode(Self.passcode))
        let keys = directory.file("store.keys")
        let original = StoreFiles.read(keys)
        var envelope = try #require(try JSONSerialization.jsonObject(with: Data(original)) as? [String: Any])
        var pending = try #require(envelope["current"] as? [String: Any])
        var protection = try #require(pending["protection"] as? [String: Any])
        var passcode = try #require(protection["passcode"] as? [String: Any])
        var kdf = try #require(passcode["_0"] as? [String: Any])
        kdf["p"] = UInt32.max
        passcode["_0"] = kdf
        protection["passcode"] = passcode
        pending["protection"] = protection
        envelope["pending"] = pending
        StoreFiles.write(keys, [UInt8](try JSONSerialization.data(withJSONObject: envelope)))
        Self.expectRefusal(directory, naming: "p", "pending p = UInt32.max")
    }

    /// A number no UInt64 holds is no key file at all.
    @Test func aParameterPastUInt64IsAMalformedKeyFile() throws {
        let directory = try KeyRotationTests.makeStore(rows: 1)
        try StorePasscode.set(directory: directory.path, passcode: Passcode(Self.passcode))
        let keys = directory.file("store.keys")
        let original = String(decoding: StoreFiles.read(keys), as: UTF8.self)
        StoreFiles.write(keys, Array(try Self.replacing("n", with: "18446744073709551616", in: original).utf8))
        #expect(throws: StoreOpenError.keyFileMalformed(path: keys, reason: "not a store key envelope")) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode(Self.passcode))
        }
    }
}
