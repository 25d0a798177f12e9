import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// One fsync per save (issue 17): a save's or deletion's access-log entry commits in the same
/// transaction as the work it records, and entries appended for other calls share commits with
/// each other and with saves — on a real encrypted store, the chain intact throughout.
@Suite(.timeLimit(.minutes(10))) struct AccessLogGroupCommitTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let app = "org.example.app"

    static func samples(_ count: Int, from index: Int = 0, valid: Bool = true) -> [SampleRecord] {
        (index..<index + count).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            // start after end breaks the objects table's CHECK: a save the store itself refuses.
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start,
                                endDate: valid ? start.addingTimeInterval(30) : start.addingTimeInterval(-30),
                                value: .quantity(Double(index), unit: "count"))
        }
    }

    static let source = SourceRecord(bundleIdentifier: app, name: "App", version: "1")

    static func draft(_ action: AccessAction) -> AccessLogEntryDraft {
        AccessLogEntryDraft(actor: app, appID: app, action: action, types: [steps])
    }

    @Test func aSaveAndItsEntryAreOneCommit() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        // Commits are counted by the store's one group-commit queue: a GRDB observer does not see
        // the entry's statements (`BoundStatement`, prepared outside GRDB), so it could not tell an
        // entry committed apart from its save.
        let before = database.samples.commitStatistics.commits

        let uuids = try await database.samples.insert(Self.samples(3), source: Self.source, accessLog: Self.draft(.write))
        #expect(uuids.count == 3)
        #expect(database.samples.commitStatistics.commits - before == 1)
        let entries = try database.accessLog.entries()
        #expect(entries.map(\.count) == [3])
        #expect(entries.map(\.action) == [AccessAction.write.rawValue])

        let deleted = try await database.samples.delete(uuids.prefix(2).map { ObjectReference(typeIdentifier: Self.steps, uuid: $0) },
                                                        appID: Self.app, accessLog: Self.draft(.delete))
        #expect(deleted == 2)
        #expect(database.samples.commitStatistics.commits - before == 2)
        #expect(try database.accessLog.entries().map(\.count) == [3, 2])
        #expect(try database.accessLog.verify() == .intact(entries: 2))
    }

    @Test func aSaveThatFailsLeavesNoEntry() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        var bad = Self.samples(2)
        bad += Self.samples(1, from: 2, valid: false)
        await #expect(throws: (any Error).self) {
            _ = try await database.samples.insert(bad, source: Self.source, accessLog: Self.draft(.write))
        }
        #expect(try database.accessLog.entries().isEmpty)
        #expect(try database.samples.count() == 0)
        // The head did not move either: the next entry is number 1 and the chain verifies.
        _ = try await database.samples.insert(Self.samples(1), source: Self.source, accessLog: Self.draft(.write))
        #expect(try database.accessLog.entries().map(\.sequence) == [1])
        #expect(try database.accessLog.verify() == .intact(entries: 1))
    }

    @Test func entriesQueuedTogetherShareOneCommitWithSaves() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let before = database.samples.commitStatistics.commits
        let hold = GroupCommitTests.WriterHold(store.writer)
        let reads = 20, saves = 10
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<reads {
                group.addTask { try await database.accessLog.appendGrouped(Self.draft(.read), count: index) }
            }
            for index in 0..<saves {
                group.addTask {
                    _ = try await database.samples.insert(Self.samples(1, from: index), source: Self.source, accessLog: Self.draft(.write))
                }
            }
            // Every entry and save must reach the group-commit queue while the writer is held
            // (an entry appended in a transaction of its own would wait for the writer instead).
            // Waits for that state itself: 30 tasks on a loaded machine's two cooperative threads
            // may take long to run, and a deadline here would fail a correct store. The hang
            // guard, and the failure of a store that appends outside the queue, is the long
            // deadline below.
            let deadline = ContinuousClock.now + .seconds(300)
            while database.samples.commitStatistics.submitted < reads + saves, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(database.samples.commitStatistics.submitted == reads + saves)
            hold.release()
            try await group.waitForAll()
        }
        // Everything queued behind the held writer: one commit (two if the first submission was
        // taken before the rest queued).
        #expect(database.samples.commitStatistics.commits - before <= 2)
        #expect(try database.accessLog.entries().count == reads + saves)
        #expect(try database.accessLog.verify() == .intact(entries: reads + saves))
    }
}
