import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// An import batch and its access-log entry are one commit (issue 16), as an app's save and its
/// entry are (`AccessLogGroupCommitTests`): healthd appended the entry after the batch, in a
/// commit of its own that the batch's reply waited for — a second fsync per batch, queued behind
/// the next batch's commit, which left the writer idle while the batch after next was decoded.
/// Real encrypted store; the entry counts what the batch added, and a failed batch leaves none.
@Suite(.timeLimit(.minutes(10))) struct ImportBatchAccessLogTests {
    static let source = SyncKeyTests.importSource

    static func draft() -> AccessLogEntryDraft {
        AccessLogEntryDraft(actor: AccessLogEntry.managerActor, appID: nil, action: .write,
                            types: [HKQuantityTypeIdentifier.heartRate.rawValue], detail: "import from Apple Health")
    }

    @Test func aBatchAndItsEntryAreOneCommitCountingWhatItAdded() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        // Counted by the group-commit queue every write of the store goes through (an entry
        // appended on its own would be a commit of its own there); not by a GRDB observer, which
        // does not see the entry's statements (`BoundStatement`, prepared outside GRDB).
        let commitsBefore = database.samples.commitStatistics.commits

        let records = DatedSyncIdentityTests.imported(50)
        let first = try await database.samples.importBatch(records, source: Self.source, accessLog: Self.draft())
        #expect(first.added == 50)
        #expect(database.samples.commitStatistics.commits - commitsBefore == 1)
        // The same batch again adds nothing: its entry says so, still in one commit.
        let again = try await database.samples.importBatch(records, source: Self.source, accessLog: Self.draft())
        #expect(again.unchanged == 50)
        #expect(database.samples.commitStatistics.commits - commitsBefore == 2)
        let entries = try database.accessLog.entries()
        #expect(entries.map(\.count) == [50, 0])
        #expect(entries.allSatisfy { $0.detail == "import from Apple Health" && $0.actor == AccessLogEntry.managerActor })
        #expect(try database.accessLog.verify() == .intact(entries: 2))
        try store.close()
    }

    /// A batch the store refuses (a sample ending before it starts breaks the `objects` CHECK)
    /// commits nothing, its entry included.
    @Test func aFailedBatchLeavesNoEntry() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        var bad = SyncKeyTests.imported(1)
        bad.endDate = bad.startDate.addingTimeInterval(-60)
        await #expect(throws: (any Error).self) {
            _ = try await database.samples.importBatch([SyncKeyTests.imported(0), bad], source: Self.source, accessLog: Self.draft())
        }
        #expect(try database.accessLog.entries().isEmpty)
        let stored = try await store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") }
        #expect(stored == 0)
        try store.close()
    }
}
