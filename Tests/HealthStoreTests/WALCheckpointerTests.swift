import CPageCipher
import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// WAL checkpoints run off the request path (issue 17): a commit past the threshold wakes the
/// background checkpointer instead of checkpointing before its save is answered, the writer
/// still checkpoints by itself past the bound, and nothing acknowledged is lost either way. On a
/// real encrypted store; the checkpointer is held (`suspend`) so that no step depends on timing.
@Suite(.timeLimit(.minutes(10))) struct WALCheckpointerTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let source = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1")

    static func samples(_ count: Int, from index: Int) -> [SampleRecord] {
        (index..<index + count).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                value: .quantity(Double(index), unit: "count"))
        }
    }

    static func walBytes(_ directory: TemporaryDirectory) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: directory.file("health.sqlite-wal")))?[.size] as? Int) ?? 0
    }

    static func pageSize(_ store: EncryptedDatabase) throws -> Int {
        try store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } ?? 4096
    }

    static func storedUUIDs(_ database: HealthDatabase) throws -> Set<UUID> {
        var found: Set<UUID> = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: steps), scope: .allSources) { found.formUnion($0.map(\.uuid)) }
        return found
    }

    /// With the background checkpointer held, commits carry the WAL well past SQLite's automatic
    /// threshold (1,000 frames): no save ran the checkpoint. (With SQLite's automatic checkpoint
    /// the WAL restarts after 1,000 frames and its file stays near that size.) Released, the
    /// checkpointer copies it all; every save is there after reopening.
    @Test func commitsLeaveTheCheckpointToTheBackgroundThread() async throws {
        let directory = TemporaryDirectory()
        var acknowledged: Set<UUID> = []
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            let database = try HealthDatabase(writer: store.writer)
            let checkpointer = try #require(store.backgroundCheckpointer)
            checkpointer.suspend()
            let target = 1_300 * (try Self.pageSize(store))
            var index = 0
            // 40 samples a save: a few dozen frames each. The cap is only a hang guard.
            while Self.walBytes(directory) < target && index < 40 * 2_000 {
                acknowledged.formUnion(try await database.samples.insert(Self.samples(40, from: index), source: Self.source))
                index += 40
            }
            #expect(Self.walBytes(directory) >= target)
            #expect(store.checkpointStatistics == WALCheckpointStatistics())

            checkpointer.resume()
            // Waits for the event; the deadline only guards against a hang.
            let deadline = ContinuousClock.now + .seconds(120)
            while store.checkpointStatistics.complete + store.checkpointStatistics.partial == 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(store.checkpointStatistics.complete >= 1)
            #expect(store.checkpointStatistics.failed == 0)
            #expect(store.checkpointStatistics.inline == 0)
            try store.close()
        }
        let reopened = try EncryptedDatabase.open(directory: directory.path)
        try reopened.checkIntegrity()
        #expect(try Self.storedUUIDs(try HealthDatabase(writer: reopened.writer)) == acknowledged)
        try reopened.close()
    }

    /// The bound: with the checkpointer held, the commit that passes `inlineFrames` checkpoints
    /// on the writer, so the WAL cannot grow without limit behind a stalled checkpointer.
    @Test func theWriterCheckpointsItselfPastTheBound() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path,
                                               checkpointing: WALCheckpointing(backgroundFrames: 20, inlineFrames: 60))
        let database = try HealthDatabase(writer: store.writer)
        try #require(store.backgroundCheckpointer).suspend()
        var acknowledged: Set<UUID> = []
        var index = 0
        while store.checkpointStatistics.inline == 0 && index < 2_000 {
            acknowledged.formUnion(try await database.samples.insert(Self.samples(1, from: index), source: Self.source))
            index += 1
        }
        #expect(store.checkpointStatistics.inline >= 1)
        #expect(index < 60)  // one-sample saves write several frames each
        #expect(try Self.storedUUIDs(database) == acknowledged)
        try store.close()
    }

    /// A checkpoint the writer runs in SQLite's WAL hook (past the bound, or the finish of a
    /// pass) comes after the commit, which is durable by then. When it fails — here the database
    /// file cannot grow: a full disk — the save it ran on is acknowledged and announced, the
    /// failure is counted, and a later commit checkpoints again (cipherreview21, finding 2: the
    /// hook returned the checkpoint's error as the COMMIT's, the caller was told its committed
    /// save failed, and GRDB then told no observer). Driven through the bound, which is
    /// deterministic with the checkpointer held; the finish returns through the same line.
    @Test func aCheckpointOnTheWriterThatFailsLeavesItsSaveCommittedAndAnnounced() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path,
                                               checkpointing: WALCheckpointing(backgroundFrames: 20, inlineFrames: 60))
        let database = try HealthDatabase(writer: store.writer)
        try #require(store.backgroundCheckpointer).suspend()
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        // Only checkpoints write the database file on the writer: the first one's first write fails.
        try await store.writer.writeWithoutTransaction { db in
            guard ohk_cipher_fail_next_writes_of(UnsafeMutableRawPointer(db.sqliteConnection), OHK_CIPHER_FILE_DATABASE, 1) == 1 else {
                throw DatabaseError(message: "the writer's database file is not the cipher VFS's")
            }
        }
        let before = store.checkpointStatistics
        var acknowledged: Set<UUID> = []
        var index = 0
        // Until the writer has checkpointed twice (the failed one and the retry); a hang guard caps it.
        while store.checkpointStatistics.inline < before.inline + 2 && index < 2_000 {
            do {
                acknowledged.formUnion(try await database.samples.insert(Self.samples(1, from: index), source: Self.source))
            } catch {
                Issue.record("save \(index) failed: \(error) (\(store.checkpointStatistics))")
            }
            index += 1
        }
        #expect(store.checkpointStatistics.failedOnWriter == before.failedOnWriter + 1, "\(store.checkpointStatistics)")
        #expect(acknowledged.count == index)
        #expect(heard.withLock { $0.count } == index)
        #expect(try Self.storedUUIDs(database) == acknowledged)
        try store.close()
    }
}
