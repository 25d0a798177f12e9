import Foundation
import GRDB
import Synchronization
import Testing

@testable import HealthModel
@testable import HealthStore

/// A call failing inside a shared commit must cost nothing that follows what is stored (privreview22,
/// finding 1). Before session 22 its savepoint's rollback made the commit watcher's note
/// incomplete, and the commit then asked the store which types had new rows — one index seek per
/// distinct stored type, hidden ones included — before anyone in the group was answered; any app
/// could cause it with a failing call beside its own save. Now the note follows the savepoints
/// (`CachedTransaction.inSavepoint`, `ChangeCapture.mark`/`rollBack`), and no commit runs that query.
///
/// Twin worlds: real encrypted stores that differ only in how many distinct types another source
/// stored (2 or 100). In each, a group commit holds a save that commits and one that fails after
/// writing a row of a type new to the store.
@Suite(.timeLimit(.minutes(10))) struct CommitWatcherSavepointTests {
    static let steps = StepSaveFixture.steps
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let source = StepSaveFixture.source
    static let hiddenSource = SourceRecord(bundleIdentifier: "org.example.hidden", name: "Hidden", version: "1")
    /// The watcher's old fallback query read every change table by change number; this is its
    /// last table's part, which no other statement of the store has.
    static let fallbackQuery = "FROM workout_effort_departed WHERE change_seq"

    struct World: Equatable {
        var outcomes: [String: Bool] = [:]
        var announced: [Set<String>?] = []
        var fallbackRuns = 0
        var statements: [String: Int] = [:]
        /// The change numbers announced, and the store's when the saves were answered.
        var changes: [Int64] = []
        var storedChange: Int64 = 0
        /// The kept and the failing save shared one commit, as the world is meant to have them.
        var shared = false
    }

    /// The failing save: a row of a type the store has never held (registered inside its
    /// savepoint), then a sample ending before it starts, which the objects table's CHECK refuses.
    static func failingSave() -> [SampleRecord] {
        let start = Date(timeIntervalSince1970: 1_700_100_000)
        return [StepSaveFixture.sample(50, type: energy, unit: "kcal"),
                SampleRecord(uuid: UUID(), typeIdentifier: energy, startDate: start, endDate: start.addingTimeInterval(-30),
                             value: .quantity(1, unit: "kcal"))]
    }

    /// A world in which the kept and the failing save shared a commit. Whether they do depends on
    /// the group-commit leader taking the first save before the kept one is submitted, which a
    /// busy machine (other suites running in parallel) can delay past it: then the world is made
    /// again, at most five times.
    static func world(hiddenTypes: Int) async throws -> World {
        var world = World()
        for _ in 0..<5 {
            world = try await attempt(hiddenTypes: hiddenTypes)
            if world.shared { break }
        }
        #expect(world.shared, "the kept and the failing save did not share a commit in five attempts")
        return world
    }

    static func attempt(hiddenTypes: Int) async throws -> World {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        // The one difference between the worlds: how many distinct types another source stored.
        let hidden = QuantityTypeDefinition.all.filter { ![steps, energy].contains($0.identifier.rawValue) }.prefix(hiddenTypes)
        #expect(hidden.count == hiddenTypes)
        _ = try await database.samples.insert(hidden.enumerated().map { index, type in
            StepSaveFixture.sample(index, type: type.identifier.rawValue, unit: type.canonicalUnit, value: 1)
        }, source: hiddenSource)
        _ = try await database.samples.insert([StepSaveFixture.sample(0)], source: source)
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        let trace = SaveStatementReuseTests.StatementTrace()
        try trace.start(store.writer)
        let before = database.samples.commitStatistics.submitted
        let hold = GroupCommitTests.WriterHold(store.writer)
        var world = World()
        world.outcomes = await withTaskGroup(of: (String, Bool).self) { group in
            // A first save leads the next commit alone (it gathered before the writer was held);
            // the two after it wait together and share the commit after it.
            let saves = [("first", [StepSaveFixture.sample(1)]), ("kept", [StepSaveFixture.sample(2)]), ("failing", failingSave())]
            for (submitted, (name, records)) in saves.enumerated() {
                group.addTask {
                    do {
                        _ = try await database.samples.insert(records, source: source)
                        return (name, true)
                    } catch {
                        return (name, false)
                    }
                }
                try? await GroupCommitTests.waitUntilSubmitted(before + submitted + 1, database)
            }
            hold.release()
            return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
        }
        _ = try trace.stopAndFindPreparedPerRun(store.writer)
        world.announced = heard.withLock { $0 }.map(\.typeIdentifiers)
        world.changes = heard.withLock { $0 }.map(\.change)
        world.storedChange = try database.changeFeed.currentChange()
        world.statements = trace.runs.withLock { $0 }
        world.shared = database.samples.commitStatistics.largestGroup == 2
            && world.statements["ROLLBACK TRANSACTION TO SAVEPOINT group_save"] == 1
        world.fallbackRuns = world.statements.filter { $0.key.contains(fallbackQuery) }.values.reduce(0, +)
        try store.close()
        return world
    }

    /// The kept save's type is announced, the failing save's is not, no commit asks the store
    /// which types changed, and both worlds run the same statements as often.
    @Test func aFailedSaveInASharedCommitRunsNoQueryThatFollowsStoredTypes() async throws {
        let few = try await Self.world(hiddenTypes: 2)
        let many = try await Self.world(hiddenTypes: 100)
        for (name, world) in [("2 hidden types", few), ("100 hidden types", many)] {
            #expect(world.outcomes == ["first": true, "kept": true, "failing": false], "\(name)")
            #expect(world.fallbackRuns == 0, "\(name): the commit watcher's fallback query ran \(world.fallbackRuns) times")
            #expect(world.announced == [[Self.steps], [Self.steps]], "\(name): announced \(world.announced)")
            // The failing save came last in the shared commit: its rolled-back number is not announced.
            #expect(world.changes.last == world.storedChange, "\(name): announced \(world.changes), stored \(world.storedChange)")
        }
        #expect(few.statements == many.statements, "the worlds' writers ran different statements")
    }

    /// The change number is noted by the pre-update hook too (no read after the commit: issue 17,
    /// Benchmarks/README.md "Session 23"), and a save's savepoint rolled back undoes its update of
    /// the counter without telling the hook: the savepoint's mark keeps the number noted before it,
    /// and the rollback restores it. One transaction: a save that is kept, then a save in the
    /// writer's savepoint that took the next number and wrote its row before it failed. The commit
    /// announces the kept save's number — the stored one — not the rolled-back save's (one higher).
    @Test func aChangeNumberRolledBackToItsSavepointIsNotAnnounced() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try await database.samples.insert([StepSaveFixture.sample(0)], source: Self.source)
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        struct Refused: Error {}
        let rolledBack = Mutex<Int64?>(nil)
        _ = try await database.samples.commits.submit { db in
            let kept = try SampleRepository.write([StepSaveFixture.sample(1)], source: Self.source, db)
            do {
                try CachedTransaction.inSavepoint(db) {
                    _ = try SampleRepository.write([StepSaveFixture.sample(2)], source: Self.source, db)
                    let taken = try Int64.fetchOne(db, sql: "SELECT value FROM counters WHERE name = 'change'")
                    rolledBack.withLock { $0 = taken }
                    throw Refused()
                }
            } catch is Refused {}
            return kept
        }
        let stored = try database.changeFeed.currentChange()
        #expect(rolledBack.withLock { $0 } == stored + 1, "the failed save did not take a change number of its own")
        #expect(try database.samples.count() == 2)
        let announced = heard.withLock { $0 }
        #expect(announced == [CommittedChange(typeIdentifiers: [Self.steps], change: stored)], "announced: \(announced)")
        try store.close()
    }

    /// The pending journal's merge runs each effect in the writer's one savepoint too: a workout
    /// save refused after its workout row was written (it names more of the app's routes than the
    /// cap) and a route finished on a workout that is not the app's are rolled back beside a save
    /// it keeps — the merge's commit announces the kept save's type only and runs no query.
    @Test func refusedJournalEffectsRunNoQueryAndAreNotAnnounced() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let app = ObjectDeleterTests.source
        let routes = try await WorkoutRouteCapTests.routesPastTheCap(database.samples)
        var workout = ObjectDeleterTests.workout()
        if case var .workout(value) = workout.value {
            value.associatedSampleUUIDs = routes
            workout.value = .workout(value)
        }
        let effects: [PendingEffect] = [
            .save(records: [StepSaveFixture.sample(0)], source: app, uuids: [UUID()]),
            .save(records: [workout], source: app, uuids: [UUID()]),
            .finishRoute(builderID: UUID(), workoutUUID: UUID(), metadata: [:], device: nil, source: app, uuid: UUID()),
        ]
        let journal = try PendingJournalMerge.begin(database, directory: directory.path)
        for index in effects.indices { try journal.append(Array("\(index)".utf8)) }
        journal.close()
        let heard = Mutex<[CommittedChange]>([])
        database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
        let trace = SaveStatementReuseTests.StatementTrace()
        try trace.start(store.writer)
        let report = try PendingJournalMerge.merge(database, directory: directory.path) { plaintext in
            guard let index = Int(String(decoding: plaintext, as: UTF8.self)), effects.indices.contains(index) else {
                throw HKError(.errorInvalidArgument, "not a test entry")
            }
            return effects[index]
        }
        _ = try trace.stopAndFindPreparedPerRun(store.writer)
        #expect(report.merged == 3)
        let fallbackRuns = trace.runs.withLock { $0 }.filter { $0.key.contains(Self.fallbackQuery) }.values.reduce(0, +)
        #expect(fallbackRuns == 0, "the commit watcher's fallback query ran \(fallbackRuns) times")
        #expect(heard.withLock { $0 }.map(\.typeIdentifiers) == [[Self.steps]])
        #expect(try database.samples.count() == 3 + routes.count, "the refused workout was stored")
        try store.close()
    }
}

/// The note follows savepoints only where they are taken: `CachedTransaction.inSavepoint` is the
/// writer's one savepoint (it marks and cuts the commit watcher's note and the storage charges).
/// A savepoint begun anywhere else — SQL text or GRDB's `inSavepoint` — would leave the note
/// naming types of rows it rolled back (before session 22 such a rollback made every commit
/// query the store). This reads every Swift source of the package, comments left out.
@Suite(.timeLimit(.minutes(10))) struct WriterSavepointRuleTests {
    static let savepointFile = "Sources/HealthStore/Records/CachedTransaction.swift"

    static func violations(in text: String) -> [Int] {
        SampleTypeBindingRuleTests.withoutComments(text).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().compactMap { index, line in
                let sql = line.contains("SAVEPOINT")
                    || line.range(of: #""[^"]*savepoint\s"#, options: [.regularExpression, .caseInsensitive]) != nil
                let grdb = line.contains(".inSavepoint") && !line.contains("CachedTransaction.inSavepoint")
                return sql || grdb ? index + 1 : nil
            }
    }

    @Test func everySavepointIsTheWritersOne() throws {
        let sources = try SampleTypeBindingRuleTests.swiftSources()
        #expect(sources.count > 100)
        for (path, text) in sources where path != Self.savepointFile {
            for line in Self.violations(in: text) {
                Issue.record("\(path):\(line): a savepoint outside CachedTransaction.inSavepoint, the writer's one savepoint")
            }
        }
        #expect(try Self.violations(in: String(contentsOf: SampleTypeBindingRuleTests.packageRoot
            .appendingPathComponent(Self.savepointFile), encoding: .utf8)).count >= 4)
    }

    @Test func theRuleCatchesBothForms() {
        #expect(Self.violations(in: "try db.inSavepoint {\n return .commit }") == [1])
        #expect(Self.violations(in: "x\ntry db.execute(sql: \"savepoint s\")") == [2])
        #expect(Self.violations(in: "try CachedTransaction.inSavepoint(db) { }\n// SAVEPOINT in a comment").isEmpty)
    }
}
