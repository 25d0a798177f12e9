import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// The workout builder's additions (Workout fields 20–24) survive encoding and decoding
/// exactly, and the decoder bounds their counts before converting them.
@Suite(.timeLimit(.minutes(10))) struct WorkoutAdditionsWireTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func record(_ workout: WorkoutValue) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start,
                     endDate: start.addingTimeInterval(3600), value: .workout(workout))
    }

    @Test func activitiesStatisticsTotalsAndAssociationsRoundTrip() throws {
        let statistic = WorkoutStatisticsRecord(quantityType: "HKQuantityTypeIdentifierHeartRate", startDate: Self.start,
                                                endDate: Self.start.addingTimeInterval(600), average: RecordedQuantity(120, unit: "count/min"),
                                                minimum: RecordedQuantity(90, unit: "count/min"), maximum: RecordedQuantity(150, unit: "count/min"),
                                                mostRecent: RecordedQuantity(140, unit: "count/min"))
        let activity = WorkoutActivityRecord(uuid: UUID(), activityType: 46, locationType: 2, swimmingLocationType: 1,
                                             lapLength: RecordedQuantity(25, unit: "m"), startDate: Self.start,
                                             endDate: Self.start.addingTimeInterval(600), metadata: ["k": .string("v")],
                                             statistics: [statistic])
        let workout = WorkoutValue(activityType: 82, duration: 3600, totalSwimmingStrokeCount: RecordedQuantity(300, unit: "count"),
                                   totalFlightsClimbed: RecordedQuantity(4, unit: "count"), activities: [activity],
                                   statistics: [WorkoutStatisticsRecord(quantityType: "HKQuantityTypeIdentifierActiveEnergyBurned",
                                                                        startDate: Self.start, endDate: Self.start.addingTimeInterval(3600),
                                                                        sum: RecordedQuantity(500, unit: "kcal"))],
                                   associatedSampleUUIDs: [UUID(), UUID()])
        let records = [Self.record(workout)]
        #expect(try SampleList(wire: SampleList(records).wireBytes()) == SampleList(records))
    }

    @Test func moreActivitiesThanAWorkoutMayHoldAreRefusedWhileDecoding() {
        let activity = { (index: Int) in
            WorkoutActivityRecord(uuid: UUID(), activityType: 37, locationType: 1, swimmingLocationType: 0,
                                  startDate: Self.start.addingTimeInterval(Double(index)), endDate: Self.start.addingTimeInterval(Double(index)))
        }
        let limit = SampleLimits.maximumWorkoutActivities
        let within = WorkoutValue(activityType: 37, duration: 0, activities: (0..<limit).map(activity))
        #expect(throws: Never.self) { try SampleList(wire: SampleList([Self.record(within)]).wireBytes()) }
        let over = WorkoutValue(activityType: 37, duration: 0, activities: (0...limit).map(activity))
        #expect(throws: WireDecodeError.self) { try SampleList(wire: SampleList([Self.record(over)]).wireBytes()) }
    }
}
