import Foundation
import GRDB
import GRDBSQLite
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// Every statement a durable save runs on the writer connection is prepared once and reused
/// (issue 17): parsing, planning and authorizing a statement again for every save was a measurable
/// share of healthd's CPU per save — `BEGIN`/`COMMIT` and each savepoint among them, which GRDB's
/// `write` and `inSavepoint` prepare anew on every run.
///
/// Counted by SQLite itself on a real encrypted store: a trace hook records the text of each
/// statement as it starts to run; afterwards each of those texts must belong to a statement still
/// prepared on the connection whose own run counter (SQLITE_STMTSTATUS_RUN) has counted at least
/// every run traced. A statement prepared per run is finalized after it, so its text has no live
/// statement (or one that ran once).
@Suite(.timeLimit(.minutes(10))) struct SaveStatementReuseTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    static func sample(_ index: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                            value: .quantity(Double(index), unit: "count"))
    }

    static func source(_ app: Int) -> SourceRecord {
        SourceRecord(bundleIdentifier: "org.example.app\(app)", name: "App \(app)", version: "1", productType: "ThinkPad X1",
                     operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
    }

    static func draft(_ app: Int) -> AccessLogEntryDraft {
        AccessLogEntryDraft(actor: source(app).bundleIdentifier, appID: source(app).bundleIdentifier, action: .write, types: [steps])
    }

    /// The texts of the statements run on the writer connection while tracing, with how often each ran.
    final class StatementTrace: Sendable {
        let runs = Mutex<[String: Int]>([:])

        func start(_ writer: any DatabaseWriter) throws {
            try writer.writeWithoutTransaction { db in
                sqlite3_trace_v2(db.sqliteConnection, UInt32(SQLITE_TRACE_STMT), { _, context, statement, traced in
                    guard let context, let statement, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
                    // A trigger's program starts with the statement that fired it as P and "-- TRIGGER
                    // name" as X (sqlite3_trace_v2): the statement's own run is traced once, apart.
                    if let traced, String(cString: traced.assumingMemoryBound(to: CChar.self)).hasPrefix("--") { return 0 }
                    let trace = Unmanaged<StatementTrace>.fromOpaque(context).takeUnretainedValue()
                    trace.runs.withLock { $0[String(cString: text), default: 0] += 1 }
                    return 0
                }, Unmanaged.passUnretained(self).toOpaque())
            }
        }

        /// Stops tracing and returns each traced text that no live statement has run as often as traced.
        func stopAndFindPreparedPerRun(_ writer: any DatabaseWriter) throws -> [String: Int] {
            let live = try writer.writeWithoutTransaction { db -> [String: Int] in
                sqlite3_trace_v2(db.sqliteConnection, 0, nil, nil)
                var live: [String: Int] = [:]
                var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
                while let current = statement {
                    if let text = sqlite3_sql(current) {
                        live[String(cString: text), default: 0] += Int(sqlite3_stmt_status(current, SQLITE_STMTSTATUS_RUN, 0))
                    }
                    statement = sqlite3_next_stmt(db.sqliteConnection, current)
                }
                return live
            }
            let traced = runs.withLock { $0 }
            // A trigger's statements are traced under a "-- TRIGGER …" comment, not as statements.
            return traced.filter { text, count in !text.hasPrefix("--") && (live[text] ?? 0) < count }
        }
    }

    @Test func aRepeatedDurableSaveRunsOnlyStatementsPreparedBefore() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        for index in 0..<3 {
            _ = try database.samples.insertBlocking([Self.sample(index)], source: Self.source(0), accessLog: Self.draft(0))
        }
        let trace = StatementTrace()
        try trace.start(store.writer)
        let saves = 20
        for index in 0..<saves {
            _ = try database.samples.insertBlocking([Self.sample(100 + index)], source: Self.source(0), accessLog: Self.draft(0))
        }
        let preparedPerRun = try trace.stopAndFindPreparedPerRun(store.writer)
        let traced = trace.runs.withLock { $0 }
        // Each save its own commit, and every statement of it traced.
        #expect(traced["COMMIT TRANSACTION"] == saves, "statements traced: \(traced)")
        #expect(traced.count >= 8, "statements traced: \(traced)")
        #expect(preparedPerRun.isEmpty, "prepared again for a save: \(preparedPerRun)")
        try store.close()
    }

    /// Saves that share one commit each run in a savepoint of it: those statements are reused too.
    @Test func savesSharingACommitRunOnlyStatementsPreparedBefore() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let apps = 4
        for app in 0..<apps {
            _ = try await database.samples.insert([Self.sample(app)], source: Self.source(app), accessLog: Self.draft(app))
        }
        let trace = StatementTrace()
        try trace.start(store.writer)
        for round in 0..<3 {
            let hold = GroupCommitTests.WriterHold(store.writer)
            let submittedBefore = database.samples.commitStatistics.submitted
            try await withThrowingTaskGroup(of: Void.self) { group in
                for app in 0..<apps {
                    group.addTask {
                        _ = try await database.samples.insert([Self.sample(100 * round + app + 10)], source: Self.source(app),
                                                              accessLog: Self.draft(app))
                    }
                }
                try await GroupCommitTests.waitUntilSubmitted(submittedBefore + apps, database)
                hold.release()
                try await group.waitForAll()
            }
        }
        let statistics = database.samples.commitStatistics
        #expect(statistics.commits < statistics.committedSaves)
        let preparedPerRun = try trace.stopAndFindPreparedPerRun(store.writer)
        let traced = trace.runs.withLock { $0 }
        #expect(traced.keys.contains { $0.hasPrefix("SAVEPOINT") }, "statements traced: \(traced)")
        #expect(preparedPerRun.isEmpty, "prepared again for a save: \(preparedPerRun)")
        try store.close()
    }
}
