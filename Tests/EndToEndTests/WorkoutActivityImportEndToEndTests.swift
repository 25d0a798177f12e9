import Foundation
import Testing
import TestSupport

/// iOS 16's `<WorkoutActivity>` through a real healthd (issue 16): `healthctl import` stores a
/// swim's two sets as the workout's activities, an app reads them with the SDK
/// (`HKWorkout.workoutActivities`: configuration, dates, events, statistics, metadata), `healthctl
/// export` writes them back in Apple's layout, and importing that export changes nothing — in
/// the store it came from (nothing added) and in an empty one (the app reads the same activities).
@Suite(.serialized, .timeLimit(.minutes(10))) struct WorkoutActivityImportEndToEndTests {
    static let workoutType = "HKWorkoutTypeIdentifier"

    /// A pool swim of two sets as an iPhone on iOS 16 exports it (Apple's DTD for the element:
    /// uuid, startDate, endDate, duration; events, statistics and metadata inside). The second
    /// set has no endDate (its duration gives it) and statistics without dates.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-02 09:00:00 +0200"/>
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
        </HealthData>

        """

    func summaryLine(_ result: ProcessResult) -> String {
        result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The activity lines an app with read permission for workouts and for the types of their
    /// statistics gets from the SDK (a new app each time, installed with those grants; without
    /// a type's grant its statistics look absent, WorkoutValueScopes).
    func activitiesAnAppReads(_ broker: BrokerProcess) async throws -> [String] {
        let app = try await broker.installClient("org.test.activity-reader-\(UUID().uuidString.prefix(8).lowercased())")
        for type in [Self.workoutType, "HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierHeartRate"] {
            try await broker.set(app, "read", type, allowed: true)
        }
        let read = try await broker.runApp(app, ["workout-snippet", "workout-activity-details"])
        #expect(read.status == 0, "\(read)\n\(broker.log)")
        return read.lines.filter { $0.hasPrefix("activity ") }
    }

    @Test func aSwimsSetsSurviveImportAppReadExportAndReimport() async throws {
        let original = try BrokerProcess()
        let path = original.root + "/export.xml"
        try Data(Self.export.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try await original.healthctl(["import", path, "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)\n\(original.log)")
        #expect(summaryLine(imported) == "1 records read; samples and routes: 1 imported, 0 already there, 0 refused.", "\(imported)")

        // What the app reads: both sets with their own UUIDs, the workout's configuration (swimming
        // 46, indoor 2, pool 1, 25 m laps from the first set's metadata), dates, the lap event
        // inside the first set, each set's own statistics, and its metadata.
        let activities = try await activitiesAnAppReads(original)
        try #require(activities.count == 2, "\(activities)")
        let first = activities[0], second = activities[1]
        let start = 1_714_543_200  // 2024-05-01 08:00:00 +0200
        #expect(first.hasPrefix("activity 6C0F5B9E-3A52-4E0A-9A55-2D1B8B1E7C11 type 46 location 2 swimming 1 lap 25.0m"
                                + " from \(start) to \(start + 720) events "), "\(first)")
        #expect(first.contains("\(start + 60)"), "the lap at 08:01: \(first)")
        #expect(first.contains("HKQuantityTypeIdentifierDistanceSwimming=400.0/-/-/-"), "\(first)")
        #expect(first.contains("HKQuantityTypeIdentifierHeartRate=-/130.0/100.0/150.0"), "\(first)")
        #expect(first.contains("HKLapLength=") && first.contains("HKSwimmingLocationType=1"), "\(first)")
        #expect(second.hasPrefix("activity 0E3C2F41-7D7B-4B1C-8D24-6B0D1E5A9F02 type 46 ")
                && second.contains(" from \(start + 900) to \(start + 1800) "), "\(second)")
        #expect(second.contains("statistics HKQuantityTypeIdentifierDistanceSwimming=500.0/-/-/- "), "\(second)")

        // Exported in Apple's layout, with both sets as <WorkoutActivity> elements.
        let zip = original.root + "/out/export.zip"
        try FileManager.default.createDirectory(atPath: original.root + "/out", withIntermediateDirectories: true)
        let exported = try await original.healthctl(["export", zip])
        #expect(exported.status == 0, "\(exported)\n\(original.log)")

        // Imported again where it came from: nothing added, nothing the app reads changed.
        let again = try await original.healthctl(["import", zip, "--characteristics", "no"])
        #expect(again.status == 0, "\(again)")
        #expect(summaryLine(again) == "1 records read; samples and routes: 0 imported, 1 already there, 0 refused.", "\(again)")
        #expect(try await activitiesAnAppReads(original) == activities)

        // Imported into an empty store: the app reads the same two sets, line for line.
        let copy = try BrokerProcess()
        let copied = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(copied.status == 0, "\(copied)\n\(copy.log)")
        #expect(summaryLine(copied) == "1 records read; samples and routes: 1 imported, 0 already there, 0 refused.", "\(copied)")
        #expect(try await activitiesAnAppReads(copy) == activities)
    }
}
