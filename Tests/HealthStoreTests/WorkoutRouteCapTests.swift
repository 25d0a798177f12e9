import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// A workout has at most `SampleLimits.maximumRoutesPerWorkout` routes, however they reach it
/// (finished on it, or an own route associated with it): deleting the workout deletes them all
/// in one writer transaction, and before the cap nothing bounded how many that was (SECURITY.md,
/// "A deletion's writer time follows what its objects take with them").
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
}
