import Foundation
import Testing

@testable import HealthStore

/// The chain hash's bytes never change: `verify()` recomputes every stored entry's hash, so an
/// encoding made faster (issue 17, Benchmarks/README.md "Session 23") must hash exactly what it
/// hashed before. The digests below were computed outside Swift (Python's hashlib) from the
/// canonical encoding: big-endian Int64s, UTF-8 strings after their byte length, a presence byte
/// before the app id, the previous hash after its length.
@Suite(.timeLimit(.minutes(10))) struct AccessLogChainHashTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test func theHashIsTheOneOfTheCanonicalEncoding() throws {
        let absentApp = AccessLogChainHash.Fields(
            sequence: 7, timeMicros: 1_700_000_000_000_123, actor: "com.example.Zoë", appID: nil, action: "write",
            typesJSON: "[\"HKQuantityTypeIdentifierStepCount\"]", count: 3, detail: "", previousHash: AccessLogChainHash.genesis)
        #expect(try Self.hex(AccessLogChainHash.hash(absentApp)) == "7b6d660b11e752f4a9efe50eb1da7c9a5c23859bd60070a5fff7b5b35c423c2c")
        let nonASCII = AccessLogChainHash.Fields(
            sequence: 8, timeMicros: -5, actor: "manager", appID: "com.example.app", action: "grant-change",
            typesJSON: "[]", count: 0, detail: "détail 🏃", previousHash: (0..<32).map { UInt8($0) })
        #expect(try Self.hex(AccessLogChainHash.hash(nonASCII)) == "5062643fbb0183a67eef1735380e65d7e992d9f749b49e42f0cd0d9a061f467a")
        let empty = AccessLogChainHash.Fields(
            sequence: 9, timeMicros: 0, actor: "", appID: "", action: "", typesJSON: "", count: -1, detail: "", previousHash: [])
        #expect(try Self.hex(AccessLogChainHash.hash(empty)) == "9a5ced9f61e358917e594a8e1d83b6493299d773da0360f252ccd11a4ff4d705")
    }
}
