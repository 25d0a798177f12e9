import Foundation
import HealthModel
import Synchronization
import Testing

@testable import HealthWire

/// Every unpack is charged to the account of the request it decodes (`UnpackMemory.account`,
/// `UnpackArena`): what it hands out is claimed before it is handed out, a little ahead, and an
/// unpack the account refuses fails with the account's limit, never with more taken than the
/// account granted. Session 13: before, the arena charged nobody, and a share that counted 4× a
/// frame held requests unpacking to 13.9× (a valid save) and up to 16× + 1 MiB.
@Suite(.timeLimit(.minutes(10))) struct UnpackChargeTests {
    /// An account granting at most `limit` bytes; records what it granted.
    final class Account: UnpackMemoryAccount {
        let limit: Int
        let granted = Mutex(0)
        let claims = Mutex(0)
        init(limit: Int) { self.limit = limit }
        func claimUnpacked(_ bytes: Int) -> Bool {
            claims.withLock { $0 += 1 }
            return granted.withLock { granted in
                guard bytes >= 0, bytes <= limit - granted else { return false }
                granted += bytes
                return true
            }
        }
        var unpackedLimitDescription: String { "the test's \(limit) bytes" }
    }

    /// The shapes an app controls, 256 KiB to 4 MiB each (`UnpackedSizeTests.shapes`), decodable ones only.
    static let shapes: [(String, [UInt8])] = [256 << 10, 4 << 20].flatMap { bytes in
        UnpackedSizeTests.shapes(bytes: bytes).filter { !$0.0.contains("empty") }.map { ("\($0.0), \(bytes >> 10) KiB", $0.1) }
    }

    /// What an unpack of `bytes` takes with nobody charged.
    static func used(_ bytes: [UInt8]) -> Int { UnpackedSizeTests.unpacked(bytes).used }

    @Test(arguments: shapes.map(\.0))
    func everyByteHandedOutIsClaimedFirstAndLittleMore(_ name: String) throws {
        let bytes = try #require(Self.shapes.first { $0.0 == name }?.1)
        let account = Account(limit: .max)
        let records = try UnpackMemory.$account.withValue(account) { try SampleList(wire: bytes) }
        #expect(!records.samples.isEmpty)
        let used = Self.used(bytes)
        let granted = account.granted.withLock { $0 }
        #expect(granted >= used, "\(name): \(used) bytes handed out, \(granted) claimed")
        #expect(granted < used + UnpackArena.claimStep, "\(name): claimed \(granted) for \(used)")
        // Claimed in steps, not per allocation (a dozen a sample).
        #expect(account.claims.withLock { $0 } <= used / UnpackArena.claimStep + 2)
    }

    /// An account that cannot cover the unpack fails it with its own limit, whatever the point
    /// it runs out at (a generated range from nothing to just short of what it needs), having
    /// granted no more than its limit.
    @Test(arguments: shapes.map(\.0))
    func anUnpackTheAccountCannotCoverFailsNamingItsLimit(_ name: String) throws {
        let bytes = try #require(Self.shapes.first { $0.0 == name }?.1)
        let needed = Self.used(bytes)
        for limit in [0, 1, UnpackArena.claimStep - 1, needed / 2, needed - 1] {
            let account = Account(limit: limit)
            #expect(throws: WireDecodeError.unpackedPastShare(message: "openhealth.v1.SampleBatch", limit: "the test's \(limit) bytes")) {
                _ = try UnpackMemory.$account.withValue(account) { try SampleList(wire: bytes) }
            }
            #expect(account.granted.withLock { $0 } <= limit)
        }
        // Exactly enough is enough (claims are rounded up to no more than the unpack's bound).
        let account = Account(limit: needed + UnpackArena.claimStep)
        #expect(throws: Never.self) { _ = try UnpackMemory.$account.withValue(account) { try SampleList(wire: bytes) } }
    }

    /// The account reaches every unpack of the task, and no other task: a decode outside the
    /// binding charges nobody.
    @Test func theAccountIsTheBoundTasksOnly() async throws {
        let bytes = SampleList([UnpackedSizeTests.record()]).wireBytes()
        let account = Account(limit: .max)
        try await UnpackMemory.$account.withValue(account) {
            _ = try await Task { try SampleList(wire: bytes) }.value
        }
        let inherited = account.granted.withLock { $0 }
        #expect(inherited > 0, "an unstructured task of the call was not charged")
        _ = try SampleList(wire: bytes)
        #expect(account.granted.withLock { $0 } == inherited)
    }
}
