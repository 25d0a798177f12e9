import Foundation
import GRDB
import HealthModel

/// The v20 side rows of a workout: activities (`workout_activities`), the builder's statistics
/// (`workout_statistics`), the count totals, and the associations a workout save carries.
/// Written with the workout's `objects` row in one transaction; read only for a workout row the
/// reader may already see (`WorkoutRows.value`), so no read here decides visibility.
enum WorkoutActivityRows {
    /// `activity_position` of the statistics that describe the whole workout.
    private static let wholeWorkout = -1

    static func insert(_ db: Database, objectID: Int64, _ workout: WorkoutValue, sourceID: Int64) throws {
        try db.execute(sql: "UPDATE workouts SET total_swimming_strokes = ?, total_flights_climbed = ? WHERE object_id = ?",
                       arguments: [workout.totalSwimmingStrokeCount?.value, workout.totalFlightsClimbed?.value, objectID])
        let insertActivity = try db.cachedStatement(sql: """
            INSERT INTO workout_activities (workout_id, position, uuid, activity_type, location_type, swimming_location_type,
                                            lap_length_m, start_us, end_us, metadata)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try insertStatistics(db, workout.statistics, objectID: objectID, position: wholeWorkout)
        for (position, activity) in workout.activities.enumerated() {
            try insertActivity.execute(arguments: [
                objectID, position, activity.uuid, Int64(activity.activityType), activity.locationType,
                activity.swimmingLocationType, activity.lapLength?.value, activity.startDate.microsecondsSince1970,
                activity.endDate.microsecondsSince1970, try MetadataCoding.encode(activity.metadata),
            ])
            try insertStatistics(db, activity.statistics, objectID: objectID, position: position)
        }
        try associate(db, workout.associatedSampleUUIDs, with: objectID, sourceID: sourceID)
    }

    /// The one place the rule for a workout save's associations is applied: only objects of the
    /// saving source, never a workout, are associated. Any other UUID — another app's sample,
    /// visible to the app or not, or one that does not exist — is skipped without a trace, so the
    /// save reveals nothing about other apps' data, and a save journaled while the store was
    /// locked merges the same way as one made while it was open. The SDK's builder sends only
    /// the app's own samples, but the rule does not rely on it. Routes count against the
    /// workout's route cap like every association (`WorkoutAssociation`): past it the save fails
    /// with errorInvalidArgument naming the cap (the count is of the app's own routes only).
    private static func associate(_ db: Database, _ uuids: [UUID], with workoutID: Int64, sourceID: Int64) throws {
        guard !uuids.isEmpty else { return }
        let workoutType = try SampleRepository.typeID(db, HKWorkoutTypeIdentifier)
        let routeType = try SampleSQL.knownTypeID(db, HKWorkoutRouteTypeIdentifier)
        let own = try db.cachedStatement(sql: "SELECT id, type_id FROM objects WHERE uuid = ? AND source_id = ? AND type_id != ?")
        for uuid in uuids {
            guard let row = try Row.fetchOne(own, arguments: [uuid, sourceID, workoutType]) else { continue }
            let (sampleID, typeID): (Int64, Int64) = (row[0], row[1])
            try WorkoutAssociation.add(db, workoutID: workoutID, sampleID: sampleID, isRoute: typeID == routeType)
        }
    }

    private static func insertStatistics(_ db: Database, _ statistics: [WorkoutStatisticsRecord],
                                         objectID: Int64, position: Int) throws {
        let insert = try db.cachedStatement(sql: """
            INSERT INTO workout_statistics (workout_id, activity_position, quantity_type, start_us, end_us,
                                            sum, average, minimum, maximum, most_recent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for statistic in statistics {
            try insert.execute(arguments: [
                objectID, position, statistic.quantityType, statistic.startDate.microsecondsSince1970,
                statistic.endDate.microsecondsSince1970, statistic.sum?.value, statistic.average?.value,
                statistic.minimum?.value, statistic.maximum?.value, statistic.mostRecent?.value,
            ])
        }
    }

    /// Adds the v20 rows of workout `objectID` to `workout`.
    static func read(_ db: Database, objectID: Int64, into workout: inout WorkoutValue) throws {
        if let totals = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT total_swimming_strokes, total_flights_climbed FROM workouts WHERE object_id = ?
            """), arguments: [objectID]) {
            let count = HKUnit.count().unitString
            workout.totalSwimmingStrokeCount = (totals["total_swimming_strokes"] as Double?).map { RecordedQuantity($0, unit: count) }
            workout.totalFlightsClimbed = (totals["total_flights_climbed"] as Double?).map { RecordedQuantity($0, unit: count) }
        }
        var statistics: [Int: [WorkoutStatisticsRecord]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT activity_position, quantity_type, start_us, end_us, sum, average, minimum, maximum, most_recent
            FROM workout_statistics WHERE workout_id = ? ORDER BY activity_position, quantity_type
            """), arguments: [objectID]) {
            let identifier: String = row["quantity_type"]
            // Validated at save; a type this build no longer knows is left out rather than
            // failing the whole workout.
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else { continue }
            let unit = type.canonicalUnit.unitString
            let quantity = { (column: String) in (row[column] as Double?).map { RecordedQuantity($0, unit: unit) } }
            statistics[row["activity_position"], default: []].append(WorkoutStatisticsRecord(
                quantityType: identifier, startDate: Date(microsecondsSince1970: row["start_us"]),
                endDate: Date(microsecondsSince1970: row["end_us"]), sum: quantity("sum"), average: quantity("average"),
                minimum: quantity("minimum"), maximum: quantity("maximum"), mostRecent: quantity("most_recent")))
        }
        workout.statistics = statistics[wholeWorkout] ?? []
        workout.activities = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT position, uuid, activity_type, location_type, swimming_location_type, lap_length_m, start_us, end_us, metadata
            FROM workout_activities WHERE workout_id = ? ORDER BY position
            """), arguments: [objectID]).map { row in
            WorkoutActivityRecord(
                uuid: row["uuid"], activityType: UInt(row["activity_type"] as Int64), locationType: row["location_type"],
                swimmingLocationType: row["swimming_location_type"],
                lapLength: (row["lap_length_m"] as Double?).map { RecordedQuantity($0, unit: HKUnit.meter().unitString) },
                startDate: Date(microsecondsSince1970: row["start_us"]), endDate: Date(microsecondsSince1970: row["end_us"]),
                metadata: try MetadataCoding.decode(row["metadata"]), statistics: statistics[row["position"]] ?? [])
        }
    }
}
