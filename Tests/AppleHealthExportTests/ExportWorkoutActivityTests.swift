@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// iOS 16's `<WorkoutActivity>` (inside `<Workout>`, with its own statistics, events and
/// metadata) is read into the workout's activities (`HKWorkoutActivity`) and written back by the
/// export so that a second import gives the same activities. No fixture in
/// ../shared/fixtures/apple-health holds one (they predate iOS 16): the element below follows
/// Apple's DTD for it (uuid, startDate, endDate, duration; events, statistics, metadata inside).
@Suite(.timeLimit(.minutes(10))) struct ExportWorkoutActivityTests {
    let helper = ExportXMLWriterTests()

    /// A pool swim of two sets, as an iPhone on iOS 16 exports it.
    static let swim = """
         <Workout workoutActivityType="HKWorkoutActivityTypeSwimming" duration="30" durationUnit="min" sourceName="Watch" sourceVersion="10.0" creationDate="2024-05-01 08:31:00 +0200" startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:30:00 +0200">
          <MetadataEntry key="HKIndoorWorkout" value="1"/>
          <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-05-01 08:00:00 +0200" duration="10" durationUnit="min"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:30:00 +0200" sum="900" unit="m"/>
          <WorkoutActivity uuid="6C0F5B9E-3A52-4E0A-9A55-2D1B8B1E7C11" startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:12:00 +0200" duration="12" durationUnit="min">
           <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-05-01 08:01:00 +0200" duration="1" durationUnit="min"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:12:00 +0200" sum="400" unit="m"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-05-01 08:00:00 +0200" endDate="2024-05-01 08:12:00 +0200" average="130" minimum="100" maximum="150" unit="count/min"/>
           <MetadataEntry key="HKSwimmingLocationType" value="1"/>
           <MetadataEntry key="HKLapLength" value="25 m"/>
           <MetadataEntry key="HKIndoorWorkout" value="1"/>
          </WorkoutActivity>
          <WorkoutActivity uuid="0E3C2F41-7D7B-4B1C-8D24-6B0D1E5A9F02" startDate="2024-05-01 08:15:00 +0200" duration="15" durationUnit="min">
           <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" sum="500" unit="m"/>
          </WorkoutActivity>
         </Workout>

        """

    func workout(_ items: [ExportItem]) throws -> ExportWorkout {
        guard case let .workout(workout)? = items.last else { throw ConversionFailed(items: "\(items)") }
        return workout
    }

    struct ConversionFailed: Error { var items: String }

    @Test func activitiesAreReadWithTheirOwnStatisticsMetadataAndEvents() throws {
        let read = try workout(try helper.readBack(Self.swim))
        #expect(read.activities.count == 2)
        #expect(read.events.count == 1)  // the lap belongs to the first activity, not to the workout element
        #expect(read.statistics.count == 1)
        let record = try SampleValidator.canonicalized(try ExportConversion.sample(read).record)
        guard case let .workout(value) = record.value else { Issue.record("\(record.value)"); return }
        #expect(value.activities.map(\.uuid.uuidString) == ["6C0F5B9E-3A52-4E0A-9A55-2D1B8B1E7C11", "0E3C2F41-7D7B-4B1C-8D24-6B0D1E5A9F02"])
        try #require(value.activities.count == 2)
        let first = value.activities[0], second = value.activities[1]
        #expect(first.activityType == HKWorkoutActivityType.swimming.rawValue)
        #expect(first.swimmingLocationType == HKWorkoutSwimmingLocationType.pool.rawValue)
        #expect(first.locationType == HKWorkoutSessionLocationType.indoor.rawValue)
        #expect(first.lapLength == RecordedQuantity(25, unit: "m"))
        #expect(first.endDate.timeIntervalSince(first.startDate) == 720)
        #expect(first.statistics.map(\.quantityType) == ["HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierHeartRate"])
        #expect(first.statistics.first?.sum == RecordedQuantity(400, unit: "m"))
        // No endDate: the duration gives it; statistics without dates cover the activity.
        #expect(second.endDate.timeIntervalSince(second.startDate) == 900)
        #expect(second.statistics.map(\.startDate) == [second.startDate])
        #expect(second.statistics.map(\.endDate) == [second.endDate])
        #expect(second.swimmingLocationType == HKWorkoutSwimmingLocationType.unknown.rawValue)
        // The activity's lap joins the workout's events, in time order.
        #expect(value.events.map(\.type) == [7, 3])
        #expect(value.statistics.map(\.sum) == [RecordedQuantity(900, unit: "m")])
    }

    @Test func anActivityWithAnInvalidUUIDRefusesItsWorkoutAndOneWithoutGetsAStableOne() throws {
        let invalid = Self.swim.replacingOccurrences(of: "6C0F5B9E-3A52-4E0A-9A55-2D1B8B1E7C11", with: "not-a-uuid")
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(try workout(try helper.readBack(invalid))) }
        let missing = Self.swim.replacingOccurrences(of: "uuid=\"6C0F5B9E-3A52-4E0A-9A55-2D1B8B1E7C11\" ", with: "")
        let once = try ExportConversion.sample(try workout(try helper.readBack(missing))).record
        let twice = try ExportConversion.sample(try workout(try helper.readBack(missing))).record
        guard case let .workout(first) = once.value, case let .workout(second) = twice.value else { Issue.record("not workouts"); return }
        #expect(first.activities.map(\.uuid) == second.activities.map(\.uuid))
        #expect(Set(first.activities.map(\.uuid)).count == 2)
    }

    /// An app's workout (HKWorkoutBuilder with two activities, their configuration in fields, not
    /// metadata) exports and reads back as the same activities; exported again, the same bytes.
    @Test func anAppsActivitiesRoundTripThroughTheExport() throws {
        let start = helper.start, end = start.addingTimeInterval(3600)
        let activities = [
            WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.swimming.rawValue,
                                  locationType: HKWorkoutSessionLocationType.indoor.rawValue,
                                  swimmingLocationType: HKWorkoutSwimmingLocationType.pool.rawValue,
                                  lapLength: RecordedQuantity(50, unit: "m"), startDate: start, endDate: start.addingTimeInterval(1200),
                                  metadata: ["coach": .string("set A")],
                                  statistics: [WorkoutStatisticsRecord(quantityType: "HKQuantityTypeIdentifierDistanceSwimming", startDate: start,
                                                                       endDate: start.addingTimeInterval(1200), sum: RecordedQuantity(1000, unit: "m"))]),
            WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.swimming.rawValue,
                                  locationType: HKWorkoutSessionLocationType.indoor.rawValue,
                                  swimmingLocationType: HKWorkoutSwimmingLocationType.pool.rawValue,
                                  lapLength: RecordedQuantity(50, unit: "m"), startDate: start.addingTimeInterval(1500), endDate: end),
        ]
        let saved = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: end,
                                 value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.swimming.rawValue, duration: 3600,
                                                              activities: activities)))
        let element = try #require(helper.writer().element(saved, sourceName: "Swim App", sourceVersion: "2"))
        let imported = try SampleValidator.canonicalized(try ExportConversion.sample(try workout(try helper.readBack(element))).record)
        guard case let .workout(value) = imported.value else { Issue.record("\(imported.value)"); return }
        try #require(value.activities.count == 2)
        for (read, original) in zip(value.activities, activities) {
            #expect(read.uuid == original.uuid)
            #expect(read.activityType == original.activityType)
            #expect(read.locationType == original.locationType)
            #expect(read.swimmingLocationType == original.swimmingLocationType)
            #expect(read.lapLength == original.lapLength)
            #expect(read.startDate == original.startDate)
            #expect(read.endDate == original.endDate)
            #expect(read.statistics == original.statistics)
            #expect(read.metadata["coach"] == original.metadata["coach"])
        }
        let again = try #require(helper.writer().element(imported, sourceName: "Swim App", sourceVersion: "2"))
        #expect(again.contains("<WorkoutActivity uuid=\"\(activities[0].uuid.uuidString)\""))
        // The import adds its sync identity to the workout; everything else is written the same.
        let strip = { (text: String) in text.split(separator: "\n").filter { !$0.contains("HKMetadataKeySync") } }
        #expect(strip(again) == strip(element))
    }
}
