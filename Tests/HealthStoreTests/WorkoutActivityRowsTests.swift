import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The v20 side rows (`WorkoutActivityRows`): a workout's activities, statistics and count
/// totals come back as saved, go with the workout, and a workout save associates only samples of
/// its own source (the rule `add(_:to:)` also follows).
@Suite(.timeLimit(.minutes(10))) struct WorkoutActivityRowsTests {
    static let start = ObjectDeleterTests.start
    static let source = ObjectDeleterTests.source
    static let other = SourceRecord(bundleIdentifier: "org.example.sensor", name: "Sensor", version: "1")

    static func workout(associating uuids: [UUID] = []) -> SampleRecord {
        let heartRate = WorkoutStatisticsRecord(quantityType: HKQuantityTypeIdentifier.heartRate.rawValue, startDate: start,
                                                endDate: start.addingTimeInterval(1200), average: RecordedQuantity(120, unit: "count/min"),
                                                mostRecent: RecordedQuantity(140, unit: "count/min"))
        let activity = WorkoutActivityRecord(uuid: UUID(), activityType: 46, locationType: 3, swimmingLocationType: 2,
                                             lapLength: RecordedQuantity(50, unit: "m"), startDate: start,
                                             endDate: start.addingTimeInterval(1200), metadata: ["lane": .number(4)],
                                             statistics: [heartRate])
        let energy = WorkoutStatisticsRecord(quantityType: HKQuantityTypeIdentifier.activeEnergyBurned.rawValue, startDate: start,
                                             endDate: start.addingTimeInterval(3600), sum: RecordedQuantity(500, unit: "kcal"))
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(3600),
                            value: .workout(WorkoutValue(activityType: 82, duration: 3600,
                                                         totalSwimmingStrokeCount: RecordedQuantity(300, unit: "count"),
                                                         totalFlightsClimbed: RecordedQuantity(4, unit: "count"),
                                                         activities: [activity], statistics: [energy],
                                                         associatedSampleUUIDs: uuids)))
    }

    static func stored(_ database: HealthDatabase, _ uuid: UUID) throws -> WorkoutValue? {
        var found: WorkoutValue?
        let spec = SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier)
        try database.samples.query(spec, scope: Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources)) { batch in
            for record in batch where record.uuid == uuid { if case let .workout(value) = record.value { found = value } }
        }
        return found
    }

    static func associated(_ database: HealthDatabase) throws -> Int {
        try ObjectDeleterTests.count(database, "workout_associations")
    }

    @Test func activitiesStatisticsAndTotalsComeBackAsSaved() async throws {
        let database = try ObjectDeleterTests.database()
        let record = try SampleValidator.canonicalized(Self.workout())  // the store holds canonical units
        let saved = try await database.samples.insert([record], source: Self.source)
        guard case var .workout(expected) = record.value else { return }
        expected.associatedSampleUUIDs = []  // sent on a save, never returned
        #expect(try Self.stored(database, saved[0]) == expected)

        _ = try await database.samples.delete([ObjectReference(typeIdentifier: HKWorkoutTypeIdentifier, uuid: saved[0])],
                                              appID: Self.source.bundleIdentifier)
        for table in ["workout_activities", "workout_statistics"] {
            #expect(try ObjectDeleterTests.count(database, table) == 0, "\(table)")
        }
    }

    /// The app's own sample is associated; another source's sample and a UUID that does not
    /// exist are skipped alike, and the save still succeeds.
    @Test func aWorkoutSaveAssociatesOnlyItsOwnSourcesSamples() async throws {
        let database = try ObjectDeleterTests.database()
        let own = try await database.samples.insert([ObjectDeleterTests.heartRate(minute: 1)], source: Self.source)
        let theirs = try await database.samples.insert([ObjectDeleterTests.heartRate(minute: 2)], source: Self.other)
        let saved = try await database.samples.insert([Self.workout(associating: own + theirs + [UUID()])], source: Self.source)
        #expect(saved.count == 1)
        #expect(try Self.associated(database) == 1)
        let sample = try await database.writer.read { db in
            try UUID.fetchOne(db, sql: "SELECT s.uuid FROM workout_associations a JOIN objects s ON s.id = a.sample_id")
        }
        #expect(sample == own[0])
    }

    /// A workout cannot be associated with a workout, even one of the same source.
    @Test func aWorkoutIsNeverAssociatedWithAnother() async throws {
        let database = try ObjectDeleterTests.database()
        let first = try await database.samples.insert([Self.workout()], source: Self.source)
        _ = try await database.samples.insert([Self.workout(associating: first)], source: Self.source)
        #expect(try Self.associated(database) == 0)
    }
}
