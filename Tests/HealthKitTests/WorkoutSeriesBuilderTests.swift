import CoreLocation
import Foundation
import Testing
@testable import HealthKit

/// `HKWorkoutBuilder.seriesBuilder(for:)` where no broker is needed: which builder it returns,
/// and what its route builder refuses before sending anything (the end-to-end behaviour is in
/// EndToEndTests/AppleSnippetTests+WorkoutRoutes).
@Suite(.timeLimit(.minutes(10))) struct WorkoutSeriesBuilderTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func location(at offset: TimeInterval) -> CLLocation {
        CLLocation(coordinate: CLLocationCoordinate2D(latitude: 46.5, longitude: 6.6), altitude: 0, horizontalAccuracy: 5,
                   verticalAccuracy: 5, timestamp: start.addingTimeInterval(offset))
    }

    static func refusal(_ builder: HKWorkoutRouteBuilder, at offset: TimeInterval) async -> HKError? {
        do {
            try await builder.insertRouteData([location(at: offset)])
            return nil
        } catch {
            return error as? HKError
        }
    }

    /// HKWorkoutBuilder.h: "Retrieves, and creates if it does not already exist, the series
    /// builder for the specified type": one route builder per workout builder, none for heartbeats.
    @Test func theRouteBuilderIsTheSameOnEveryCallAndThereIsNoneForHeartbeats() throws {
        let builder = HKWorkoutBuilderTests.builder()
        let route = try #require(builder.seriesBuilder(for: .workoutRoute()) as? HKWorkoutRouteBuilder)
        #expect(builder.seriesBuilder(for: .workoutRoute()) === route)
        #expect(builder.seriesBuilder(for: .heartbeat()) == nil)
        #expect(HKWorkoutBuilderTests.builder().seriesBuilder(for: .workoutRoute()) !== route)
    }

    /// A workout builder's route must lie inside the workout: a location before the collection's
    /// start, or after its end once ended, fails the insert at once, naming the location.
    @Test func locationsOutsideTheCollectionAreRefusedWhenInserted() async throws {
        let builder = HKWorkoutBuilderTests.builder()
        let route = try #require(builder.seriesBuilder(for: .workoutRoute()) as? HKWorkoutRouteBuilder)
        try await builder.beginCollection(at: Self.start)
        let early = await Self.refusal(route, at: -0.001)
        #expect(early?.code == .errorInvalidArgument)
        #expect(early?.message.contains("location 0 is timed before the workout began collecting") == true, "\(String(describing: early))")
        try await builder.endCollection(at: Self.start.addingTimeInterval(600))
        let late = await Self.refusal(route, at: 600.001)
        #expect(late?.code == .errorInvalidArgument)
        #expect(late?.message.contains("location 0 is timed after the workout ended collecting") == true, "\(String(describing: late))")
    }

    /// discardWorkout() discards the route builder too (HKSeriesBuilder.discard(): "Invalidates
    /// the builder and discards the collected data"): later inserts fail, and the workout
    /// builder keeps handing out that discarded builder.
    @Test func discardingTheWorkoutDiscardsItsRouteBuilder() async throws {
        let builder = HKWorkoutBuilderTests.builder()
        let route = try #require(builder.seriesBuilder(for: .workoutRoute()) as? HKWorkoutRouteBuilder)
        try await builder.beginCollection(at: Self.start)
        builder.discardWorkout()
        let refused = await Self.refusal(route, at: 1)
        #expect(refused?.code == .errorInvalidArgument)
        #expect(refused?.message.contains("discarded") == true, "\(String(describing: refused))")
        #expect(builder.seriesBuilder(for: .workoutRoute()) === route)
    }
}
