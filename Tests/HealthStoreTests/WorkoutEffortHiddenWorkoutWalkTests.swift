import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Session 23: since session 22 (v69) an effort type's wake-up check
/// (`WorkoutEffortRelationSQL.anyVisibleChange`) and the relationship query's reading after an
/// anchor visited only the relation changes whose *sample* the reader may see, but looked each
/// one's workout up and dropped it there when hidden: a reader of every source's scores that may
/// not read workouts (or only its own, or a window of them) visited the relations other apps made
/// between scores it sees and workouts it cannot, so its check cost followed how many were made.
/// Now every relation, removal and departure keeps its workout's source and start, and the walks
/// name both scopes (`WorkoutEffortRelationSQL.laterChanges`, v70); the `.workoutEffort`
/// predicate looks its workout up before the relation (`SampleSQL`).
///
/// Counted, not timed: SQLite's VM steps of every statement the questions run, with 0, 1,000 and
/// 3,000 hidden workouts related to a score the reader sees after the question's change number
/// (or related before it and unrelated, or deleted, after it), against the twin store in which
/// those workouts never existed: equal, and the same answers — for each scope the reader may
/// have for the scores (every source's, its own, a window) and for workouts (its own only, which
/// is what "no workout read" gives; a window — the same window as the scores' when both are).
/// Serialized: 18 cases of some 22,000 writes each, run at once on a loaded machine, did not each
/// finish within the time limit.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WorkoutEffortHiddenWorkoutWalkTests {
    static let effort = WorkoutEffortStoreTests.effort
    static let estimated = WorkoutEffortStoreTests.estimated
    static let start = WorkoutEffortStoreTests.start
    static let reader = SourceRecord(bundleIdentifier: "org.example.reader", name: "Reader", version: "1")
    static let rater = WorkoutEffortStoreTests.rater
    static let hidden = SourceRecord(bundleIdentifier: "org.example.hidden", name: "Hidden", version: "1")
    /// The windows start a day after the hidden workouts; the reader's workouts and the score two days after.
    static let since = start.addingTimeInterval(86_400)
    static let later = 2 * 24 * 60

    enum Scores: String, CaseIterable, CustomTestStringConvertible {
        case all = "every source's scores"
        case own = "its own scores"
        case window = "scores in a window"

        var testDescription: String { rawValue }

        var scope: ReadScope {
            let id = WorkoutEffortHiddenWorkoutWalkTests.reader.bundleIdentifier
            switch self {
            case .all: return .allSources
            case .own: return .ownSamples(appID: id)
            case .window: return .recentWindow(appID: id, since: WorkoutEffortHiddenWorkoutWalkTests.since)
            }
        }
    }

    enum Workouts: String, CaseIterable, CustomTestStringConvertible {
        case none = "no workout read (its own only)"
        case window = "workouts in a window"

        var testDescription: String { rawValue }

        var scope: ReadScope {
            let id = WorkoutEffortHiddenWorkoutWalkTests.reader.bundleIdentifier
            switch self {
            case .none: return .ownSamples(appID: id)
            case .window: return .recentWindow(appID: id, since: WorkoutEffortHiddenWorkoutWalkTests.since)
            }
        }
    }

    /// What happened to the hidden workouts' relations after the question's change number.
    enum Change: String, CaseIterable {
        case related = "related"
        case unrelated = "unrelated (related before)"
        case departed = "gone with their workouts (related before)"
    }

    struct Outcome: Equatable {
        var steps: [String: Int64] = [:]
        var answers: [String: String] = [:]
    }

    /// One reader and one kind of change: a test case each, each under the suite's time limit.
    struct Case: CustomTestStringConvertible, Sendable {
        let scores: Scores
        let workouts: Workouts
        let change: Change

        var testDescription: String { "\(scores.rawValue), \(workouts.rawValue), \(change.rawValue)" }

        static let all = Scores.allCases.flatMap { scores in
            Workouts.allCases.flatMap { workouts in Change.allCases.map { Case(scores: scores, workouts: workouts, change: $0) } }
        }
    }

    @Test(arguments: Case.all)
    func hiddenWorkoutsRelationsCostNothing(_ reader: Case) async throws {
        let (scores, workouts, change) = (reader.scores, reader.workouts, reader.change)
        for visibleChange in [false, true] {
            let twin = try await Self.outcome(scores, workouts, change, hiddenWorkouts: nil, visibleChange: visibleChange)
            #expect(twin.steps.values.allSatisfy { $0 > 0 }, "\(twin.steps)")
            #expect(twin.answers["check, effort"] == "\(visibleChange)", "\(twin.answers)")
            #expect(twin.answers["relationship query"] == (visibleChange ? "first own workout: the score; " : "")
                        + "second own workout: the score", "\(twin.answers)")
            for count in [0, 1_000, 3_000] {
                let world = try await Self.outcome(scores, workouts, change, hiddenWorkouts: count, visibleChange: visibleChange)
                #expect(world.answers == twin.answers,
                        "\(change.rawValue), visible change \(visibleChange), \(count) hidden: \(world.answers); the twin: \(twin.answers)")
                for (question, steps) in twin.steps.sorted(by: { $0.key < $1.key }) {
                    #expect(world.steps[question] == steps, """
                        \(change.rawValue), visible change \(visibleChange), \(question): \(steps) VM steps in the twin, \
                        \(world.steps[question] ?? 0) with \(count) hidden workouts
                        """)
                }
            }
        }
    }

    static func workout(minute: Int) -> SampleRecord {
        let date = start.addingTimeInterval(Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: date, endDate: date.addingTimeInterval(3600),
                            value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3600)))
    }

    /// A store with the reader's two workouts and one score the reader may see (its own for
    /// `.own`, the rater's in the window otherwise), related to the second workout before the
    /// question's change number. `hiddenWorkouts` (nil: the twin, where they never existed): that
    /// many of the hidden app's workouts, before the windows, with the score related to each after
    /// the change number (`.related`), or before it and then unrelated or deleted with their
    /// workouts after it. With `visibleChange` the score is then related to the first workout.
    static func outcome(_ scores: Scores, _ workouts: Workouts, _ change: Change, hiddenWorkouts: Int?,
                        visibleChange: Bool) async throws -> Outcome {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let mine = try await database.samples.insert([workout(minute: later), workout(minute: later + 120)], source: reader)
        let owner = scores == .own ? reader : rater
        let score = try #require(try await database.samples.insert([WorkoutEffortStoreTests.score(6, minute: later + 10)],
                                                                   source: owner).first)
        try await relate(score, to: [mine[1]], by: owner, relate: true, database)
        // In both worlds, three of the hidden app's workouts with a relation, a removal and a
        // departure from before the change number: a seek into an index range with no entry
        // after it ends a step or two sooner than one that lands on an entry outside the range.
        let sentinels = try await database.samples.insert((0..<3).map { _ in workout(minute: 0) }, source: hidden)
        try await relate(score, to: sentinels, by: owner, relate: true, database)
        try await relate(score, to: [sentinels[1]], by: owner, relate: false, database)
        try await deleteWorkouts([sentinels[2]], database)
        var others: [UUID] = []
        if let count = hiddenWorkouts, count > 0 {
            others = try await database.samples.insert((0..<count).map { workout(minute: $0 % 600) }, source: hidden)
            if change != .related { try await relate(score, to: others, by: owner, relate: true, database) }
        }
        let cursor = try database.changeFeed.currentChange()
        switch change {
        case .related: try await relate(score, to: others, by: owner, relate: true, database)
        case .unrelated: try await relate(score, to: others, by: owner, relate: false, database)
        case .departed: try await deleteWorkouts(others, database)
        }
        if visibleChange { try await relate(score, to: [mine[0]], by: owner, relate: true, database) }

        let visibility = Visibility(scope: scores.scope, workouts: workouts.scope, correlations: scores.scope)
        let workoutVisibility = Visibility(scope: workouts.scope, workouts: workouts.scope, correlations: workouts.scope)
        let samples = [effort: scores.scope, estimated: scores.scope]
        func check(_ type: String, _ predicate: SamplePredicate?) throws -> String {
            let changed = try database.changeFeed.hasChanges(of: type, matching: predicate, scope: visibility, after: cursor,
                                                             includingWorkoutEffortRelations: true).changed
            return "\(changed)"
        }
        func relations(after: Int64?) throws -> String {
            let answer = try database.samples.workoutEffortRelations(matching: nil, workouts: workoutVisibility, samples: samples,
                                                                     mostRelevant: false, maximumSamples: 100, after: after)
            // UUIDs are fresh in each world: named by what they are.
            let names = [mine[0]: "first own workout", mine[1]: "second own workout", score: "the score"]
            return answer.relations.map { relation in
                let samples = relation.sampleUUIDs.map { names[$0] ?? "another score" }.joined(separator: ", ")
                return "\(names[relation.workoutUUID] ?? "another workout")\(relation.activityUUID == nil ? "" : " activity"): \(samples)"
            }.joined(separator: "; ")
        }
        let questions: [(String, () throws -> String)] = [
            ("check, effort", { try check(effort, nil) }),
            ("check, estimated", { try check(estimated, nil) }),
            // The predicate `predicateForWorkoutEffortSamplesRelated` gives: the changed score a
            // candidate, tested for a relation to the first workout.
            ("check, effort, related to the first own workout", { try check(effort, .workoutEffort(workout: mine[0], activity: nil)) }),
            ("relationship query after the anchor", { try relations(after: cursor) }),
            ("relationship query", { try relations(after: nil) }),
        ]
        var outcome = Outcome()
        for (question, ask) in questions {
            var answer = ""
            outcome.steps[question] = try WorkoutEffortChangeWalkTests.steps(writer) { answer = try ask() }
            outcome.answers[question] = answer
        }
        return outcome
    }

    /// Relates (or unrelates) `sample`, saved by `source`, to each of `workouts`, in one write
    /// through the path a relate call takes (`WorkoutEffortChanges.apply`), as when the workouts
    /// were visible to `source`.
    static func relate(_ sample: UUID, to workouts: [UUID], by source: SourceRecord, relate: Bool, _ database: HealthDatabase) async throws {
        guard !workouts.isEmpty else { return }
        try await database.samples.commits.submit(returning: { db in
            for workout in workouts {
                try WorkoutEffortChanges.apply(sample: sample, workout: workout, activity: nil, appID: source.bundleIdentifier,
                                               workouts: .allSources, relate: relate, db)
            }
        })
    }

    /// The hidden app deletes its `workouts` (their relations depart with them).
    static func deleteWorkouts(_ workouts: [UUID], _ database: HealthDatabase) async throws {
        guard !workouts.isEmpty else { return }
        _ = try await database.samples.delete(workouts.map { ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: $0) },
                                              appID: hidden.bundleIdentifier)
    }
}
