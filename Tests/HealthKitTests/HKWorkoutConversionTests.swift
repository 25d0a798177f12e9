import Foundation
import Testing

@testable import HealthKit

/// `HKWorkout` to and from the wire's `SampleRecord`: what is sent, the default duration, and
/// every field of a fetched workout.
@Suite(.timeLimit(.minutes(10))) struct HKWorkoutConversionTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aWorkoutIsSentWithItsTotalsEventsAndPauseAdjustedDuration() throws {
        let events = [
            HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: Self.start.addingTimeInterval(600), duration: 0), metadata: nil),
            HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: Self.start.addingTimeInterval(660), duration: 0), metadata: nil),
        ]
        let workout = HKWorkout(activityType: .cycling, start: Self.start, end: Self.start.addingTimeInterval(3600), workoutEvents: events,
                                totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 500),
                                totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 20), metadata: ["note": "hills"])
        #expect(workout.duration == 3540)
        let record = try workout.saveRecord()
        #expect(record.typeIdentifier == HKWorkoutTypeIdentifier)
        #expect(record.value == .workout(WorkoutValue(
            activityType: HKWorkoutActivityType.cycling.rawValue, duration: 3540,
            totalEnergyBurned: RecordedQuantity(500, unit: "kcal"), totalDistance: RecordedQuantity(20, unit: "km"),
            events: events.map(\.record))))
    }

    @Test func eventMetadataThatCannotBeStoredFailsTheSave() {
        let event = HKWorkoutEvent(type: .marker, dateInterval: DateInterval(start: Self.start, duration: 0), metadata: ["bad": [1, 2]])
        let workout = HKWorkout(activityType: .yoga, start: Self.start, end: Self.start.addingTimeInterval(60), workoutEvents: [event],
                                totalEnergyBurned: nil, totalDistance: nil, metadata: nil)
        #expect(throws: HKError.self) { try workout.saveRecord() }
    }

    @Test func aFetchedWorkoutAndRouteCarryEveryField() throws {
        let event = WorkoutEventRecord(type: HKWorkoutEventType.lap.rawValue, startDate: Self.start,
                                       endDate: Self.start.addingTimeInterval(300), metadata: ["lap": .number(1)])
        let record = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: Self.start,
                                  endDate: Self.start.addingTimeInterval(600),
                                  value: .workout(WorkoutValue(activityType: 37, duration: 600, totalDistance: RecordedQuantity(1500, unit: "m"),
                                                               events: [event])),
                                  source: SourceRecord(bundleIdentifier: "org.example.run", name: "Run", version: "2"))
        let workout = try #require(try HKSample.fetched(record) as? HKWorkout)
        #expect(workout.workoutActivityType == .running)
        #expect(workout.totalDistance?.doubleValue(for: .meter()) == 1500)
        #expect(workout.totalEnergyBurned == nil)
        #expect(workout.workoutEvents?.map(\.type) == [.lap])
        #expect(workout.workoutEvents?.first?.dateInterval.duration == 300)
        #expect(workout.workoutEvents?.first?.metadata?["lap"] as? NSNumber == 1)
        #expect(workout.sourceRevision.source.bundleIdentifier == "org.example.run")

        var routeRecord = record
        routeRecord.typeIdentifier = HKWorkoutRouteTypeIdentifier
        routeRecord.value = .workoutRoute(locationCount: 42)
        #expect((try HKSample.fetched(routeRecord) as? HKWorkoutRoute)?.count == 42)
    }
}
