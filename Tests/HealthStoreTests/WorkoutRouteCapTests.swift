import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// A workout has at most `SampleLimits.maximumRoutesPerWorkout` routes, however they reach it
/// (finished on it, an own route associated with it, or named among a workout save's own
/// associations; each also merged from the pending journal): deleting the workout deletes them
/// all in one writer transaction, and before the cap nothing bounded how many that was
/// (SECURITY.md, "A deletion's writer time follows what its objects take with them"). Until
/// session 22 a workout save's associations went past the cap (privreview22): they now go
/// through the same choke point (`WorkoutAssociation`).
@Suite(.timeLimit(.minutes(10))) struct WorkoutRouteCapTests {
    static let start = ObjectDeleterTests.start
    static let source = ObjectDeleterTests.source
    static let cap = SampleLimits.maximumRoutesPerWorkout

    static func finishRoute(on workout: UUID, _ repository: SampleRepository) async throws -> SampleRecord {
        let builder = UUID()
        _ = try await repository.insertRouteData([RouteLocation(timestamp: start.addingTimeInterval(5), latitude: 1, longitude: 2)],
                                                 builderID: builder, source: source)
        return try await repository.finishRoute(builderID: builder, workoutUUID: workout, metadata: [:], device: nil, source: source)
    }

    static func expectCapRefusal(_ error: any Error, _ context: String) {
        let refusal = error as? HKError
        #expect(refusal?.code == .errorInvalidArgument, "\(context): \(error)")
        #expect("\(error)".contains("at most \(cap) routes"), "\(context): \(error)")
    }

    @Test func aWorkoutTakesRoutesUpToTheCapAndRefusesTheNext() async throws {
        let database = try ObjectDeleterTests.database()
        let repository = database.samples
        let workouts = try await repository.insert([ObjectDeleterTests.workout(), ObjectDeleterTests.workout()], source: Self.source)
        var routes: [SampleRecord] = []
        for _ in 0..<Self.cap { routes.append(try await Self.finishRoute(on: workouts[0], repository)) }
        do {
            _ = try await Self.finishRoute(on: workouts[0], repository)
            Issue.record("route \(Self.cap + 1) was finished on one workout")
        } catch {
            Self.expectCapRefusal(error, "finish")
        }
        // Through an association: a route of the other workout, added to the full one.
        let other = try await Self.finishRoute(on: workouts[1], repository)
        do {
            try await repository.associate([other.uuid], with: workouts[0], appID: Self.source.bundleIdentifier)
            Issue.record("route \(Self.cap + 1) was associated with one workout")
        } catch {
            Self.expectCapRefusal(error, "associate")
        }
        // Associating a route it already has is no new route.
        try await repository.associate([routes[0].uuid], with: workouts[0], appID: Self.source.bundleIdentifier)
        let associated = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM workout_associations a JOIN objects o ON o.id = a.sample_id "
                             + "WHERE a.workout_id = (SELECT id FROM objects WHERE uuid = ?)", arguments: [workouts[0]])
        }
        #expect(associated == Self.cap)
    }

    /// `cap` + 1 finished routes of the app: `cap` on one workout, one on another.
    static func routesPastTheCap(_ repository: SampleRepository) async throws -> [UUID] {
        let workouts = try await repository.insert([ObjectDeleterTests.workout(), ObjectDeleterTests.workout()], source: source)
        var routes: [UUID] = []
        for _ in 0..<cap { routes.append(try await finishRoute(on: workouts[0], repository).uuid) }
        routes.append(try await finishRoute(on: workouts[1], repository).uuid)
        return routes
    }

    static func workout(associating uuids: [UUID]) -> SampleRecord {
        var workout = ObjectDeleterTests.workout()
        if case var .workout(value) = workout.value {
            value.associatedSampleUUIDs = uuids
            workout.value = .workout(value)
        }
        return workout
    }

    static func routesOf(_ workout: UUID, _ database: HealthDatabase) async throws -> Int? {
        try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM workout_associations a JOIN objects o ON o.id = a.sample_id "
                             + "JOIN sample_types t ON t.id = o.type_id WHERE t.identifier = ? "
                             + "AND a.workout_id = (SELECT id FROM objects WHERE uuid = ?)",
                             arguments: [HKWorkoutRouteTypeIdentifier, workout])
        }
    }

    /// A workout saved naming `cap` + 1 of the app's routes among its associations is refused
    /// (nothing of it stored); naming `cap` of them, it holds `cap` routes.
    @Test func aWorkoutSaveAssociatingMoreRoutesThanTheCapIsRefused() async throws {
        let database = try ObjectDeleterTests.database()
        let repository = database.samples
        let routes = try await Self.routesPastTheCap(repository)
        let stored = try repository.count()
        do {
            let saved = try await repository.insert([Self.workout(associating: routes)], source: Self.source)
            Issue.record("a workout was saved with \(try await Self.routesOf(saved[0], database) ?? -1) routes")
        } catch {
            Self.expectCapRefusal(error, "workout save")
        }
        #expect(try repository.count() == stored)
        let saved = try await repository.insert([Self.workout(associating: Array(routes.prefix(Self.cap)))], source: Self.source)
        #expect(try await Self.routesOf(saved[0], database) == Self.cap)
    }

    /// The same cap when the store was locked and the calls are merged from the pending journal:
    /// a workout save naming too many routes, a route finished on a full workout and a route
    /// associated with it are each refused (changing nothing), and the merge goes on.
    @Test func journaledCallsPastTheCapAreRefusedAtTheMerge() async throws {
        let directory = TemporaryDirectory()
        let database = try ObjectDeleterTests.database()
        let repository = database.samples
        let routes = try await Self.routesPastTheCap(repository)
        let full = try #require(try await database.writer.read { db in
            try UUID.fetchOne(db, sql: "SELECT w.uuid FROM workout_associations a JOIN objects w ON w.id = a.workout_id "
                              + "JOIN objects r ON r.id = a.sample_id WHERE r.uuid = ?", arguments: [routes[0]])
        })
        _ = try database.apps.install(AppManifest(id: Self.source.bundleIdentifier, displayName: "Runner", executable: "/usr/bin/true",
                                                  version: "1"))
        try database.grants.apply(appID: Self.source.bundleIdentifier, [GrantDecision(HKWorkoutRouteTypeIdentifier, .share, .authorized)])
        let builder = UUID()
        _ = try await repository.insertRouteData([RouteLocation(timestamp: Self.start.addingTimeInterval(5), latitude: 1, longitude: 2)],
                                                 builderID: builder, source: Self.source)
        let stored = try repository.count()
        let refusedWorkout = UUID()
        let effects: [PendingEffect] = [
            .save(records: [Self.workout(associating: routes)], source: Self.source, uuids: [refusedWorkout]),
            .finishRoute(builderID: builder, workoutUUID: full, metadata: [:], device: nil, source: Self.source, uuid: UUID()),
            .associate(sampleUUIDs: [routes[Self.cap]], workoutUUID: full, appID: Self.source.bundleIdentifier),
            .save(records: [Self.workout(associating: Array(routes.prefix(Self.cap)))], source: Self.source, uuids: [UUID()]),
        ]
        let journal = try PendingJournalMerge.begin(database, directory: directory.path)
        for index in effects.indices { try journal.append(Array("\(index)".utf8)) }
        journal.close()
        let report = try PendingJournalMerge.merge(database, directory: directory.path) { plaintext in
            guard let index = Int(String(decoding: plaintext, as: UTF8.self)), effects.indices.contains(index) else {
                throw HKError(.errorInvalidArgument, "not a test entry")
            }
            return effects[index]
        }
        #expect(report.merged == effects.count)
        // Counted for the unlock's report and healthd's log (`MergeRefusals`): the three refused, one app, one reason each.
        #expect(report.refused.total == 3, "\(report.refused)")
        #expect(report.refused.entries.allSatisfy { $0.appID == Self.source.bundleIdentifier && $0.reason.contains("at most \(Self.cap) routes") },
                "\(report.refused)")
        #expect(try repository.count() == stored + 1, "only the last workout is stored")
        #expect(try await Self.routesOf(refusedWorkout, database) == 0)
        #expect(try await Self.routesOf(full, database) == Self.cap)
    }
}
