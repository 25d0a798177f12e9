import Foundation
import Testing
@testable import HealthKit

/// The parts of `HKWorkoutBuilder` that need no broker: its phases, elapsed time with pauses,
/// and activities that must not overlap (developer.apple.com/documentation/healthkit/hkworkoutbuilder,
/// elapsedtime(at:), hkworkoutactivity).
@Suite(.timeLimit(.minutes(10))) struct HKWorkoutBuilderTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func builder() -> HKWorkoutBuilder {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        return HKWorkoutBuilder(healthStore: HKHealthStore(), configuration: configuration, device: nil)
    }

    static func event(_ type: HKWorkoutEventType, _ offset: TimeInterval) -> HKWorkoutEvent {
        HKWorkoutEvent(type: type, dateInterval: DateInterval(start: start.addingTimeInterval(offset), duration: 0), metadata: nil)
    }

    @Test func elapsedTimeLeavesOutPausesAndStopsAtTheEnd() async throws {
        let builder = Self.builder()
        #expect(builder.elapsedTime(at: Self.start.addingTimeInterval(100)) == 0)  // not begun
        try await builder.beginCollection(at: Self.start)
        try await builder.addWorkoutEvents([Self.event(.pause, 600), Self.event(.resume, 900)])
        #expect(builder.elapsedTime(at: Self.start.addingTimeInterval(300)) == 300)
        #expect(builder.elapsedTime(at: Self.start.addingTimeInterval(700)) == 600)   // paused since 600
        #expect(builder.elapsedTime(at: Self.start.addingTimeInterval(1200)) == 900)
        try await builder.endCollection(at: Self.start.addingTimeInterval(1800))
        #expect(builder.elapsedTime(at: Self.start.addingTimeInterval(3600)) == 1500)
    }

    @Test func callsOutOfPhaseFailWithInvalidArgument() async throws {
        let builder = Self.builder()
        await #expect(throws: HKError.self) { try await builder.endCollection(at: Self.start) }
        await #expect(throws: HKError.self) { _ = try await builder.finishWorkout() }
        try await builder.beginCollection(at: Self.start)
        await #expect(throws: HKError.self) { try await builder.beginCollection(at: Self.start) }
        await #expect(throws: HKError.self) { _ = try await builder.finishWorkout() }  // still collecting
        await #expect(throws: HKError.self) { try await builder.endCollection(at: Self.start.addingTimeInterval(-1)) }
        builder.discardWorkout()
        do {
            try await builder.addMetadata(["k": "v"])
            Issue.record("a discarded builder took metadata")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument)
            #expect(error.message.contains("discarded"))
        }
    }

    @Test func activitiesMustEndBeforeTheNextBeginsAndNotOverlap() async throws {
        let builder = Self.builder()
        try await builder.beginCollection(at: Self.start)
        let configuration = HKWorkoutConfiguration()
        let first = HKWorkoutActivity(workoutConfiguration: configuration, start: Self.start, end: nil, metadata: nil)
        try await builder.addWorkoutActivity(first)
        let second = HKWorkoutActivity(workoutConfiguration: configuration, start: Self.start.addingTimeInterval(600), end: nil, metadata: nil)
        await #expect(throws: HKError.self) { try await builder.addWorkoutActivity(second) }  // first still in progress
        try await builder.updateActivity(uuid: first.uuid, end: Self.start.addingTimeInterval(700))
        await #expect(throws: HKError.self) { try await builder.addWorkoutActivity(second) }  // overlaps
        let third = HKWorkoutActivity(workoutConfiguration: configuration, start: Self.start.addingTimeInterval(700), end: nil, metadata: nil)
        try await builder.addWorkoutActivity(third)
        #expect(builder.workoutActivities.map(\.uuid) == [first.uuid, third.uuid])
        #expect(builder.workoutActivities.first?.endDate == Self.start.addingTimeInterval(700))
    }

    @Test func aConfigurationIsCopiedSoLaterChangesRecordNothing() {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .cycling
        let builder = HKWorkoutBuilder(healthStore: HKHealthStore(), configuration: configuration, device: nil)
        configuration.activityType = .yoga
        #expect(builder.workoutConfiguration.activityType == .cycling)
    }

    @Test func poolSwimmingWithoutALapLengthIsRefused() {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .swimming
        configuration.swimmingLocationType = .pool
        #expect(throws: HKError.self) { _ = try HKWorkoutSession(healthStore: HKHealthStore(), configuration: configuration) }
        configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        #expect(throws: Never.self) { _ = try HKWorkoutSession(healthStore: HKHealthStore(), configuration: configuration) }
    }
}
