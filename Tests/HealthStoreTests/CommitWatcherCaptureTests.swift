import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// The commit watcher learns which types a commit changed from SQLite's pre-update hook
/// (`ChangeCapture`) instead of querying five tables after every commit (issue 17: that query
/// was about a sixth of healthd's instructions for a one-sample save). What it announces must
/// not shrink: every type a committed row of the change tables carries.
@Suite(.timeLimit(.minutes(10))) struct CommitWatcherCaptureTests {
    static let steps = StepSaveFixture.steps
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let source = StepSaveFixture.source
    static let draft = StepSaveFixture.draft

    static func sample(_ index: Int, _ type: String = steps) -> SampleRecord {
        StepSaveFixture.sample(index, type: type, unit: type == steps ? "count" : "kcal")
    }

    /// The change tables' query (the watcher's fallback until session 22) is not run: 20 durable
    /// saves are announced, each with its type (traced by SQLite on the writer connection).
    @Test func durableSavesAreAnnouncedWithoutTheChangeTablesQuery() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        let trace = SaveStatementReuseTests.StatementTrace()
        try trace.start(store.writer)
        for index in 0..<20 {
            _ = try database.samples.insertBlocking([Self.sample(index, index % 2 == 0 ? Self.steps : Self.energy)],
                                                   source: Self.source, accessLog: Self.draft)
        }
        _ = try trace.stopAndFindPreparedPerRun(store.writer)
        let queries = trace.runs.withLock { runs in runs.filter { $0.key.contains("FROM workout_effort_departed WHERE change_seq") } }
        #expect(queries.isEmpty, "the change tables' query ran after the saves' commits: \(queries.values.reduce(0, +)) times")
        let announced = heard.withLock { $0 }
        #expect(announced.count == 20)
        for (index, change) in announced.enumerated() {
            #expect(change.typeIdentifiers == [index % 2 == 0 ? Self.steps : Self.energy])
        }
        #expect(announced.map(\.change) == Array(announced.first.map { $0.change..<($0.change + 20) } ?? 0..<0))
    }

    /// The change number is noted by the same hook as the types (the `counters` row the save's
    /// transaction updated), so neither the save (`nextChange`, which takes the value its own
    /// UPDATE wrote from the capture) nor the watcher after the commit reads it: 20 durable saves
    /// run the counter's SELECT 0 times, where it ran 40 before session 23 (once in each save's
    /// transaction, once in the watcher's read transaction after each commit; issue 17,
    /// Benchmarks/README.md "Session 23"). The numbers announced, and those the saved objects
    /// carry, are still the committed ones.
    @Test func durableSavesAreAnnouncedWithoutReadingTheChangeNumberAgain() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.samples.insertBlocking([Self.sample(0)], source: Self.source, accessLog: Self.draft)
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        let trace = SaveStatementReuseTests.StatementTrace()
        try trace.start(store.writer)
        let saves = 20
        for index in 1...saves {
            _ = try database.samples.insertBlocking([Self.sample(index)], source: Self.source, accessLog: Self.draft)
        }
        _ = try trace.stopAndFindPreparedPerRun(store.writer)
        let reads = trace.runs.withLock { $0["SELECT value FROM counters WHERE name = 'change'"] ?? 0 }
        #expect(reads == 0, "the change number was read \(reads) times for \(saves) saves")
        let stored = try database.changeFeed.currentChange()
        #expect(heard.withLock { $0 }.map(\.change) == Array((stored - Int64(saves) + 1)...stored))
        let carried = try store.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT change_seq FROM objects ORDER BY change_seq DESC LIMIT ?", arguments: [saves])
        }
        #expect(carried == Array((stored - Int64(saves) + 1)...stored).reversed())
        try store.close()
    }

    /// A second store object on the same writer takes the connection's hook; the first watcher's
    /// capture then reports itself incomplete, and that watcher announces every type (no query
    /// over the store since session 22: its cost followed the stored types): its listener still
    /// hears the commit, as possibly its own.
    @Test func aWatcherWhoseCaptureWasTakenOverStillAnnounces() async throws {
        let writer = try DatabaseQueue()
        let first = try HealthDatabase(writer: writer)
        let heard = Mutex<[CommittedChange]>([])
        first.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        let second = try HealthDatabase(writer: writer)
        _ = try await second.samples.insert([Self.sample(0), Self.sample(1, Self.energy)], source: Self.source)
        let announced = heard.withLock { $0 }
        #expect(announced.last == CommittedChange(typeIdentifiers: nil, change: 1), "announced: \(announced)")
        #expect(announced.allSatisfy { $0.concerns(Self.steps) && $0.concerns(Self.energy) }, "announced: \(announced)")
    }

    /// A write rolled back as a whole announces nothing, and what it wrote is not carried into
    /// the next commit's announcement.
    @Test func aRolledBackWriteIsNeitherAnnouncedNorCarriedOver() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        _ = try await database.samples.insert([Self.sample(0)], source: Self.source)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            _ = try await database.samples.commits.submit { db in
                _ = try SampleRepository.write([Self.sample(1, Self.energy)], source: Self.source, db)
                throw Refused()
            }
        }
        _ = try await database.samples.insert([Self.sample(2)], source: Self.source)
        #expect(heard.withLock { $0 }.map(\.typeIdentifiers) == [[Self.steps], [Self.steps]])
    }

    /// A save that fails inside a group commit is rolled back to its savepoint while the others
    /// commit: the commit announces the committed saves' type, not the failed save's, although
    /// the failed save had inserted a row of its type before its bad one (cipherreview21, finding
    /// 4: announcing it made healthd re-read for every query of a type nothing was saved to).
    @Test func aSaveRolledBackToItsSavepointIsNotAnnounced() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        // Both types stored once, so that neither save registers a type.
        _ = try await database.samples.insert([Self.sample(0), Self.sample(1, Self.energy)], source: Self.source)
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        let start = Date(timeIntervalSince1970: 1_700_100_000)
        // Its second sample ends before it starts: the objects table's CHECK refuses it, after
        // its first was inserted.
        let failing = [Self.sample(2, Self.energy),
                       SampleRecord(uuid: UUID(), typeIdentifier: Self.energy, startDate: start,
                                    endDate: start.addingTimeInterval(-30), value: .quantity(1, unit: "kcal"))]
        let hold = GroupCommitTests.WriterHold(store.writer)
        let outcomes = await withTaskGroup(of: (String, Bool).self) { group in
            // A steps save first: it leads the next group (committed alone or with the others),
            // so the failing save never has a transaction of its own.
            for (submitted, (name, records)) in [("steps a", [Self.sample(3)]), ("energy", failing),
                                                 ("steps b", [Self.sample(4)])].enumerated() {
                group.addTask {
                    do {
                        _ = try await database.samples.insert(records, source: Self.source)
                        return (name, true)
                    } catch {
                        return (name, false)
                    }
                }
                if submitted == 0 { try? await GroupCommitTests.waitUntilSubmitted(2, database) }
            }
            try? await GroupCommitTests.waitUntilSubmitted(4, database)
            hold.release()
            return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes == ["steps a": true, "energy": false, "steps b": true])
        #expect(database.samples.commitStatistics.largestGroup >= 2)
        let announced = heard.withLock { $0 }
        #expect(!announced.isEmpty)
        for change in announced {
            #expect(change.typeIdentifiers == [Self.steps], "announced: \(announced)")
        }
        #expect(announced.last?.change == (try database.changeFeed.currentChange()), "announced: \(announced)")
        try store.close()
    }
}
