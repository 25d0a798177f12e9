import Foundation
import Synchronization
import GRDB
import GRDBSQLite
import HealthModel
import Testing

@testable import HealthStore

/// An app's call cannot make the store compute without bound (s19 availability review, findings
/// 1 and 2): every store connection's progress handler (`StatementWatch`) stops a statement run on
/// behalf of a call whose `StatementBudget` is spent, ended, or whose store drains. On a real
/// encrypted store, with rows whose metadata is as large as a save may make it, and the costliest
/// predicate a call may send (`SamplePredicate.maximumMetadataComparisons` metadata conditions,
/// none matching: every row is read in full and none is handed).
///
/// Each case builds one small store (`rows` samples); the expensive statement costs a few
/// seconds of CPU in a debug build, and every budget here is a fraction of that.
@Suite(.timeLimit(.minutes(10))) struct StatementBudgetTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let attacker = SourceRecord(bundleIdentifier: "org.example.attacker", name: "Attacker", version: "1")
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")
    static let rows = 40

    /// 64 metadata entries of 4,000-byte strings (`SampleLimits`' most), about 270 KB of JSON.
    static func samples(_ count: Int, from index: Int = 0, bigMetadata: Bool = true) -> [SampleRecord] {
        let filler = String(repeating: "x", count: 4_000)
        let metadata = bigMetadata ? Dictionary(uniqueKeysWithValues: (0..<64).map { ("org.example.key\($0)", MetadataValue.string(filler)) }) : [:]
        return (index..<index + count).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                value: .quantity(Double(index), unit: "count"), metadata: metadata)
        }
    }

    /// The costliest predicate a call may send: every metadata comparison it is allowed, none matching.
    static let expensive = SamplePredicate.or((0..<SamplePredicate.maximumMetadataComparisons).map {
        .metadata(key: "org.example.absent\($0)", .compare(.equalTo, .string("nothing")))
    })

    static let ownScope = Visibility(scope: .ownSamples(appID: attacker.bundleIdentifier), workouts: .ownSamples(appID: attacker.bundleIdentifier),
                                     correlations: .ownSamples(appID: attacker.bundleIdentifier))

    static func store(rows: Int = rows, hiddenRows: Int = 0) async throws -> (TemporaryDirectory, EncryptedDatabase, HealthDatabase) {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        for first in stride(from: 0, to: rows, by: 10) {
            _ = try await database.samples.insert(samples(min(10, rows - first), from: first), source: attacker)
        }
        for first in stride(from: 0, to: hiddenRows, by: 10) {
            _ = try await database.samples.insert(samples(min(10, hiddenRows - first), from: first), source: other)
        }
        return (directory, store, database)
    }

    static func query(_ database: HealthDatabase, _ predicate: SamplePredicate? = expensive) throws -> Int {
        var found = 0
        try database.samples.query(SampleQuerySpec(typeIdentifier: steps, predicate: predicate), scope: ownScope) { found += $0.count }
        return found
    }

    /// CPU time of the calling thread.
    static func cpu() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    @Test func aStatementPastItsCPUBudgetStopsAndSaysSo() async throws {
        let (directory, store, database) = try await Self.store()
        _ = (directory, store)
        // Unbounded, the statement costs more than the budget below (the test could not fail otherwise).
        let before = Self.cpu()
        #expect(try Self.query(database) == 0)
        let cost = Self.cpu() - before
        let limit = Duration.milliseconds(50)
        try #require(cost > limit * 4, "the expensive statement cost only \(cost)")

        let budget = StatementBudget(cpuPerStatement: limit, draining: nil)
        let started = Self.cpu()
        #expect(throws: DatabaseError.self) {
            try StatementBudget.$current.withValue(budget) { try Self.query(database) }
        }
        #expect(budget.stop == .overBudget(cpuPerStatement: limit))
        // Stopped near its budget, not at the statement's end.
        #expect(Self.cpu() - started < limit + cost / 2, "stopped after \(Self.cpu() - started) of \(cost)")
        // A cheap statement of another call under the same limit runs (the budget is per call).
        let cheap = StatementBudget(cpuPerStatement: limit, draining: nil)
        #expect(try StatementBudget.$current.withValue(cheap) { try Self.query(database, nil) } == Self.rows)
        #expect(cheap.stop == nil)
    }

    @Test func endingTheCallStopsItsRunningStatement() async throws {
        let (directory, store, database) = try await Self.store()
        _ = (directory, store)
        let budget = StatementBudget(cpuPerStatement: .seconds(600), draining: nil)
        // A thread of its own, not a task: under a loaded full run the cooperative pool's threads
        // were all busy with synchronous work (this query's among them), so a task's 50 ms sleep
        // ended only after the 42 s statement had finished by itself.
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(50_000)
            budget.end()
            ended.signal()
        }
        let started = ContinuousClock.now
        #expect(throws: DatabaseError.self) {
            try StatementBudget.$current.withValue(budget) { try Self.query(database) }
        }
        ended.wait()
        #expect(budget.stop == .callEnded)
        // And every later statement of the call stops at its first look.
        #expect(throws: DatabaseError.self) {
            try StatementBudget.$current.withValue(budget) { try Self.query(database) }
        }
        _ = started
    }

    /// A drain stops an app's reading statements; the writer's (a save) finish.
    @Test func aDrainStopsReadersNotTheWriter() async throws {
        let (directory, store, database) = try await Self.store()
        _ = (directory, store)
        let draining = StoreDraining()
        draining.set(true)
        let budget = StatementBudget(cpuPerStatement: .seconds(600), draining: draining)
        #expect(throws: DatabaseError.self) {
            try StatementBudget.$current.withValue(budget) { try Self.query(database) }
        }
        #expect(budget.stop == .storeDraining)
        let saving = StatementBudget(cpuPerStatement: .seconds(600), draining: draining)
        let saved = try StatementBudget.$current.withValue(saving) {
            try database.samples.insertBlocking(Self.samples(5, from: 10_000), source: Self.attacker)
        }
        #expect(saved.count == 5)
        #expect(saving.stop == nil)
        draining.set(false)
        let after = StatementBudget(cpuPerStatement: .seconds(600), draining: draining)
        #expect(try StatementBudget.$current.withValue(after) { try Self.query(database, nil) } == Self.rows + 5)
    }

    /// The deletion's predicate is evaluated on a reader, never in the write transaction: another
    /// app's save commits while an expensive deletion by predicate computes. Before, the chunk's
    /// SELECT ran inside the writer and the save waited for all of it.
    @Test func anExpensiveDeletionByPredicateNeverHoldsTheWriter() async throws {
        let (directory, store, database) = try await Self.store(rows: 480)
        _ = (directory, store)
        let app = Self.attacker.bundleIdentifier
        let deletion = Task.detached {
            try await StatementBudget.$current.withValue(StatementBudget(cpuPerStatement: .seconds(600), draining: nil)) {
                try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: Self.expensive, appID: app, workouts: .allSources)
            }
        }
        try await Task.sleep(for: .milliseconds(300))  // the deletion is selecting its first chunk
        let started = ContinuousClock.now
        _ = try await database.samples.insert(Self.samples(1, from: 50_000, bigMetadata: false), source: Self.other)
        let saveTook = ContinuousClock.now - started
        let deletionStarted = ContinuousClock.now
        #expect(try await deletion.value == 0)
        let deletionLeft = ContinuousClock.now - deletionStarted
        // The save did not wait for the deletion's predicate (which was still computing after it).
        #expect(deletionLeft > .milliseconds(500), "the deletion ended too soon for the test to tell (\(deletionLeft) after the save)")
        #expect(saveTook < .seconds(1), "a save waited \(saveTook) for another app's deletion by predicate")
    }

    /// A drain (lock, key change) ends a deletion between its chunks, saying how many it deleted.
    @Test func aDrainEndsADeletionBetweenChunksWithTheCountSoFar() async throws {
        let (directory, store, database) = try await Self.store(rows: 0)
        _ = (directory, store)
        let total = SampleRepository.deletionChunk * 2 + 10
        for first in stride(from: 0, to: total, by: 2_000) {
            _ = try await database.samples.insert(Self.samples(min(2_000, total - first), from: first, bigMetadata: false), source: Self.attacker)
        }
        let asked = Mutex(0)
        do {
            _ = try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: nil, appID: Self.attacker.bundleIdentifier,
                                                          workouts: .allSources, stopRequested: {
                                                              asked.withLock { $0 += 1; return $0 > 1 }  // after the first chunk
                                                          })
            Issue.record("the deletion went on past the drain")
        } catch let cut as DeletionCutShort {
            #expect(cut.deleted == SampleRepository.deletionChunk)
        }
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? -1 }
        #expect(left == total - SampleRepository.deletionChunk)
    }

    /// The budget adds no signal about hidden rows: the work the app's own-scope statements do —
    /// its query and its deletion's chunk selection — is the same, VM step for VM step, in a store
    /// where another app saved many samples of the type, with large metadata, before and after the
    /// app's own (none of which the app may read), and in its twin without them. What a statement
    /// is charged follows that work, so the budget trips alike in both.
    @Test func theChargedWorkIsTheSameWithAndWithoutHiddenRows() async throws {
        func world(hidden: Int) async throws -> (DatabaseQueue, HealthDatabase) {
            let queue = try DatabaseQueue()
            let database = try HealthDatabase(writer: queue)
            if hidden > 0 { _ = try await database.samples.insert(Self.samples(hidden / 2, from: 1_000), source: Self.other) }
            _ = try await database.samples.insert(Self.samples(20), source: Self.attacker)
            if hidden > 0 { _ = try await database.samples.insert(Self.samples(hidden / 2, from: 2_000), source: Self.other) }
            return (queue, database)
        }
        func steps(_ queue: DatabaseQueue, _ work: () throws -> Void) throws -> Int {
            let counter = VMStepCounter()
            let context = Unmanaged.passUnretained(counter).toOpaque()
            queue.inDatabase { db in
                sqlite3_progress_handler(db.sqliteConnection, 1, { context in
                    if let context { Unmanaged<VMStepCounter>.fromOpaque(context).takeUnretainedValue().steps += 1 }
                    return 0
                }, context)
            }
            defer { queue.inDatabase { db in sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) } }
            try work()
            return counter.steps
        }
        let (twinQueue, twin) = try await world(hidden: 0)
        let (worldQueue, hiddenWorld) = try await world(hidden: 40)
        let app = Self.attacker.bundleIdentifier
        for predicate in [Self.expensive, .metadata(key: "org.example.key1", .exists), nil] as [SamplePredicate?] {
            let label = String(describing: predicate).prefix(60)
            var found = 0
            let queryTwin = try steps(twinQueue) { () throws -> Void in found = try Self.query(twin, predicate) }
            #expect(found == (predicate == Self.expensive ? 0 : 20), "\(label)")
            let queryWorld = try steps(worldQueue) { () throws -> Void in found = try Self.query(hiddenWorld, predicate) }
            #expect(found == (predicate == Self.expensive ? 0 : 20), "hidden world, \(label)")
            #expect(queryWorld == queryTwin, "query, \(label)")
            func select(_ database: HealthDatabase) throws {
                _ = try database.writer.read { db in
                    try SampleRepository.selectMatchingChunk(typeIdentifier: Self.steps, predicate: predicate, appID: app, workouts: .allSources,
                                                             chunk: DeletionChunk.Resolved(through: .max, after: nil), db)
                }
            }
            let selectTwin = try steps(twinQueue) { () throws -> Void in try select(twin) }
            let selectWorld = try steps(worldQueue) { () throws -> Void in try select(hiddenWorld) }
            #expect(selectWorld == selectTwin, "deletion, \(label)")
            #expect(selectTwin > 0)
        }
    }
}

final class VMStepCounter: @unchecked Sendable {
    var steps = 0
}
