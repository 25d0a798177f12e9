import CPageCipher
import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Page nonces are drawn from the CSPRNG 64 at a time (issue 17, `nonce_batch.c`): one
/// `RAND_bytes` call per sealed page was about a third of sealing it. Each nonce is still used
/// once: every frame the WAL holds has its own, and a forked child throws its parent's batch
/// away. Counted by the writer connection's WAL file on a real encrypted store.
@Suite(.timeLimit(.minutes(10))) struct PageNonceBatchTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let app = "org.example.app"
    static let source = SourceRecord(bundleIdentifier: app, name: "App", version: "1")
    static let draft = AccessLogEntryDraft(actor: app, appID: app, action: .write, types: [steps])

    static func sample(_ index: Int) -> [SampleRecord] {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        return [SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                             value: .quantity(Double(index), unit: "count"))]
    }

    /// 100 durable one-sample saves seal hundreds of frames from a few batches (one a page before).
    @Test func sealedFramesDrawOneBatchPerSixtyFourNonces() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.samples.insertBlocking(Self.sample(0), source: Self.source, accessLog: Self.draft)
        let before = try WALWriteCoalescingTests.statistics(store)
        for index in 1...100 {
            _ = try database.samples.insertBlocking(Self.sample(index), source: Self.source, accessLog: Self.draft)
        }
        let after = try WALWriteCoalescingTests.statistics(store)
        let pages = after.pages_sealed - before.pages_sealed
        let batches = after.nonce_batches - before.nonce_batches
        #expect(pages >= 200, "frames sealed by 100 saves: \(pages)")
        #expect(batches <= pages / 64 + 2, "nonce batches drawn for \(pages) frames: \(batches)")
    }

    /// Every frame in the WAL file carries a nonce no other frame carries (bytes 4068–4079 of its
    /// sealed page, the unit's last 28 bytes being nonce and tag).
    @Test func everyFrameInTheLogHasItsOwnNonce() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        for index in 0..<100 {
            _ = try database.samples.insertBlocking(Self.sample(index), source: Self.source, accessLog: Self.draft)
        }
        let log = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/health.sqlite-wal"))
        let frameBytes = 24 + 4096
        var nonces = Set<Data>()
        var frames = 0
        var offset = 32
        while offset + frameBytes <= log.count {
            let page = log.index(log.startIndex, offsetBy: offset + 24)
            nonces.insert(log[(page + 4068)..<(page + 4080)])
            frames += 1
            offset += frameBytes
        }
        #expect(frames >= 200, "frames in the log: \(frames)")
        #expect(nonces.count == frames, "\(frames) frames, \(nonces.count) distinct nonces")
    }

    /// After a fork the child draws a batch of its own before its next seal, although the batch
    /// it inherited still has nonces left (the fork handler's work, done here without forking).
    @Test func aForkedChildThrowsItsInheritedBatchAway() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.samples.insertBlocking(Self.sample(0), source: Self.source, accessLog: Self.draft)
        let before = try WALWriteCoalescingTests.statistics(store)
        #expect(before.pages_sealed % 64 != 0, "the batch must have nonces left: \(before.pages_sealed) sealed")
        ohk_cipher_simulate_fork_child()
        _ = try database.samples.insertBlocking(Self.sample(1), source: Self.source, accessLog: Self.draft)
        let after = try WALWriteCoalescingTests.statistics(store)
        #expect(after.nonce_batches - before.nonce_batches == 1,
                "batches drawn by the first save after a fork: \(after.nonce_batches - before.nonce_batches)")
    }

    /// The same with a real fork: the handler that throws the inherited batch away must be
    /// registered with the C library, or a forked child sealing a page would repeat the nonce its
    /// parent seals next, under the same key. (The case above bumps the generation by hand and
    /// cannot tell whether the handler is registered at all.)
    @Test func aRealForkedChildDoesNotTakeFromItsInheritedBatch() throws {
        #expect(ohk_cipher_nonce_batch_fork_probe() == 1, "the child would take a nonce from the batch it inherited")
    }
}
