import Foundation
import GRDB
import GRDBSQLite
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// Session 22: an effort type's wake-up check (`WorkoutEffortRelationSQL.anyVisibleChange`, what
/// observers, background launches and the relationship query's updates ask) and the relationship
/// query's reading after an anchor walked the relations, removals and departed relations changed
/// since by change number alone (`…_by_change`): every type's and source's, the hidden ones
/// dropped after being visited — so what they cost followed the relations other apps made,
/// unrelated or lost with their workout. Now each walk visits only rows the reader's scope for the
/// type admits (`WorkoutEffortRelationSQL.laterChanges`, v69). Counted, not timed: SQLite's
/// virtual-machine steps (`SQLITE_STMTSTATUS_VM_STEP`) of every statement the questions run, with
/// 0, 1,000 and 10,000 hidden relations changed after the question's change number, against the
/// twin store in which neither they nor their samples ever existed: equal, and the same answers.
/// For each scope kind, the hidden relations are of samples that scope does not admit:
/// - the reader's own samples only: another app's scores;
/// - a window: another app's scores before the window;
/// - every source's scores (and only its own estimated scores): another app's estimated scores.
/// Their workout is one the reader may see, so only the sample scope hides them.
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortChangeWalkTests {
    static let effort = WorkoutEffortStoreTests.effort
    static let estimated = WorkoutEffortStoreTests.estimated
    static let start = WorkoutEffortStoreTests.start
    static let reader = SourceRecord(bundleIdentifier: "org.example.reader", name: "Reader", version: "1")
    static let rater = WorkoutEffortStoreTests.rater
    static let watch = WorkoutEffortStoreTests.watch
    static let hidden = SourceRecord(bundleIdentifier: "org.example.hidden", name: "Hidden", version: "1")
    /// The window starts a day after the workouts.
    static let since = start.addingTimeInterval(86_400)

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case own = "reads its own scores"
        case window = "reads scores in a window"
        case full = "reads every score, its own estimated ones"

        var testDescription: String { rawValue }

        var samples: [String: ReadScope] {
            let id = WorkoutEffortChangeWalkTests.reader.bundleIdentifier
            switch self {
            case .own: return [effort: .ownSamples(appID: id), estimated: .ownSamples(appID: id)]
            case .window:
                let window = ReadScope.recentWindow(appID: id, since: WorkoutEffortChangeWalkTests.since)
                return [effort: window, estimated: window]
            case .full: return [effort: .allSources, estimated: .ownSamples(appID: id)]
            }
        }

        /// The type of the hidden scores: one this kind's scope for it does not admit.
        var hiddenType: String { self == .full ? estimated : effort }
    }

    /// What happened to the hidden relations after the question's change number.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case related = "related"
        case unrelated = "unrelated (related before)"
        case departed = "gone with their workout (related before)"

        var testDescription: String { rawValue }
    }

    struct Outcome: Equatable {
        var steps: [String: Int64] = [:]
        var answers: [String: String] = [:]
    }

    @Test(arguments: Kind.allCases, Change.allCases)
    func aChangeWalksWorkIsItsTwins(kind: Kind, change: Change) async throws {
        for visibleChange in [false, true] {
            let twin = try await Self.outcome(kind, change, hiddenRelations: nil, visibleChange: visibleChange)
            #expect(twin.steps.values.allSatisfy { $0 > 0 }, "\(twin.steps)")
            #expect(twin.answers["check, effort"] == "\(visibleChange)", "\(twin.answers)")
            for rows in [0, 1_000, 10_000] {
                let world = try await Self.outcome(kind, change, hiddenRelations: rows, visibleChange: visibleChange)
                #expect(world.answers == twin.answers,
                        "\(kind), \(change), visible change \(visibleChange), \(rows) hidden: \(world.answers); the twin: \(twin.answers)")
                for (question, steps) in twin.steps.sorted(by: { $0.key < $1.key }) {
                    #expect(world.steps[question] == steps, """
                        \(kind), \(change), visible change \(visibleChange), \(question): \(steps) VM steps in the twin, \
                        \(world.steps[question] ?? 0) with \(rows) hidden relations
                        """)
                }
            }
        }
    }

    /// A store with the watch's three workouts (the reader may see them), the reader's own score
    /// and the rater's score in the window, related to the first workout before the question's
    /// change number. `hiddenRelations` (nil: the twin, where they never existed): that many of
    /// the hidden app's scores of `kind.hiddenType`, before the window, saved before the change
    /// number and related to the second workout — after it (`.related`), or before it and then
    /// unrelated or gone with the workout after it. Both worlds delete the second workout after
    /// the change number for `.departed`. With `visibleChange` the reader then relates its own
    /// score to the first workout.
    static func outcome(_ kind: Kind, _ change: Change, hiddenRelations: Int?, visibleChange: Bool) async throws -> Outcome {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let workouts = try await database.samples.insert((0..<3).map { _ in WorkoutEffortStoreTests.workout() }, source: watch)
        let own = try #require(try await database.samples.insert([WorkoutEffortStoreTests.score(5, minute: 10)], source: reader).first)
        let theirs = try #require(try await database.samples.insert([WorkoutEffortStoreTests.score(6, minute: 2 * 24 * 60)],
                                                                    source: rater).first)
        try await relate([theirs], to: workouts[0], by: rater, relate: true, database)
        // In both worlds, one hidden relation (on the second workout), removal and departure
        // from before the change number: a seek into an index range with no entry after it ends
        // a step or two sooner than one that lands on an entry outside the range — without these,
        // 1–10 steps more in the hidden worlds, the same with 1,000 and 10,000 hidden relations.
        let sentinels = try await database.samples.insert((0..<3).map {
            WorkoutEffortStoreTests.score(1, minute: 15 + $0, type: kind.hiddenType)
        }, source: hidden)
        try await relate([sentinels[0]], to: workouts[1], by: hidden, relate: true, database)
        try await relate([sentinels[1]], to: workouts[0], by: hidden, relate: true, database)
        try await relate([sentinels[1]], to: workouts[0], by: hidden, relate: false, database)
        try await relate([sentinels[2]], to: workouts[2], by: hidden, relate: true, database)
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: workouts[2])],
                                              appID: watch.bundleIdentifier)
        var scores: [UUID] = []
        if let rows = hiddenRelations, rows > 0 {
            scores = try await database.samples.insert((0..<rows).map {
                WorkoutEffortStoreTests.score(Double($0 % 10 + 1), minute: 20 + $0 % 600, type: kind.hiddenType)
            }, source: hidden)
            if change != .related { try await relate(scores, to: workouts[1], by: hidden, relate: true, database) }
        }
        let cursor = try database.changeFeed.currentChange()
        switch change {
        case .related: try await relate(scores, to: workouts[1], by: hidden, relate: true, database)
        case .unrelated: try await relate(scores, to: workouts[1], by: hidden, relate: false, database)
        case .departed:
            _ = try await database.samples.delete([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: workouts[1])],
                                                  appID: watch.bundleIdentifier)
        }
        if visibleChange { try await relate([own], to: workouts[0], by: reader, relate: true, database) }

        let samples = kind.samples
        func visibility(_ type: String) -> Visibility {
            Visibility(scope: samples[type] ?? .allSources, workouts: .allSources, correlations: samples[type] ?? .allSources)
        }
        let related = SamplePredicate.workoutEffort(workout: workouts[0], activity: nil)
        func check(_ type: String, _ predicate: SamplePredicate?) throws -> String {
            let changed = try database.changeFeed.hasChanges(of: type, matching: predicate, scope: visibility(type), after: cursor,
                                                             includingWorkoutEffortRelations: true).changed
            return "\(changed)"
        }
        let questions: [(String, () throws -> String)] = [
            ("check, effort", { try check(effort, nil) }),
            ("check, estimated", { try check(estimated, nil) }),
            // The predicate `predicateForWorkoutEffortSamplesRelated` gives: every new relation a candidate.
            ("check, effort, related to the first workout", { try check(effort, related) }),
            ("relationship query after the anchor", {
                let answer = try database.samples.workoutEffortRelations(matching: nil, workouts: WorkoutEffortStoreTests.allWorkouts,
                                                                         samples: samples, mostRelevant: false, maximumSamples: 100,
                                                                         after: cursor)
                // UUIDs are fresh in each world: named by what they are.
                let names = [workouts[0]: "first workout", workouts[1]: "second workout", own: "own score", theirs: "rater's score"]
                return answer.relations.map { relation in
                    let samples = relation.sampleUUIDs.map { names[$0] ?? "another score" }
                    return "\(names[relation.workoutUUID] ?? "another workout") \(relation.activityUUID == nil ? "" : "activity "): \(samples)"
                }.joined(separator: "; ")
            }),
        ]
        var outcome = Outcome()
        for (question, ask) in questions {
            var answer = ""
            outcome.steps[question] = try steps(writer) { answer = try ask() }
            outcome.answers[question] = answer
        }
        return outcome
    }

    /// Relates (or unrelates) each of `samples`, saved by `source`, to `workout`, in one write
    /// through the path a relate call takes (`WorkoutEffortChanges.apply`).
    static func relate(_ samples: [UUID], to workout: UUID, by source: SourceRecord, relate: Bool, _ database: HealthDatabase) async throws {
        guard !samples.isEmpty else { return }
        try await database.samples.commits.submit(returning: { db in
            for sample in samples {
                try WorkoutEffortChanges.apply(sample: sample, workout: workout, activity: nil, appID: source.bundleIdentifier,
                                               workouts: .allSources, relate: relate, db)
            }
        })
    }

    /// The VM steps of every query `body` runs (each run again on its own, its arguments expanded).
    static func steps(_ writer: DatabaseQueue, while body: () throws -> Void) throws -> Int64 {
        let queries = try StatementSteps.executed(writer, while: body).filter {
            let sql = $0.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            return sql.hasPrefix("SELECT") || sql.hasPrefix("WITH")
        }
        return try StatementSteps.vmSteps(of: queries, in: writer)
    }
}
