import Foundation
import GRDB
import HealthModel

/// A workout's side rows (`workouts`, `workout_events`) and a route's location count: the parts
/// of a workout or route object that do not fit `objects`' quantity and category columns.
enum WorkoutRows {
    /// Stores `workout` (validated, totals in kcal and m) for the object with row id `objectID`.
    static func insert(_ db: Database, objectID: Int64, _ workout: WorkoutValue, sourceID: Int64) throws {
        try db.execute(sql: """
            INSERT INTO workouts (object_id, activity_type, duration, total_energy_kcal, total_distance_m)
            VALUES (?, ?, ?, ?, ?)
            """, arguments: [objectID, Int64(workout.activityType), workout.duration,
                             workout.totalEnergyBurned?.value, workout.totalDistance?.value])
        let insertEvent = try db.cachedStatement(sql: """
            INSERT INTO workout_events (workout_id, position, type, start_us, end_us, metadata) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for (position, event) in workout.events.enumerated() {
            try insertEvent.execute(arguments: [
                objectID, position, event.type, event.startDate.microsecondsSince1970, event.endDate.microsecondsSince1970,
                MetadataCoding.encode(event.metadata),
            ])
        }
        try WorkoutActivityRows.insert(db, objectID: objectID, workout, sourceID: sourceID)
    }

    /// Whether objects of `typeIdentifier` keep their value here rather than in `objects`.
    static func holdsValue(of typeIdentifier: String) -> Bool {
        typeIdentifier == HKWorkoutTypeIdentifier || typeIdentifier == HKWorkoutRouteTypeIdentifier
    }

    /// The value of a workout or route object; nil for other types (their value is in `objects`).
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        switch typeIdentifier {
        case HKWorkoutTypeIdentifier:
            return .workout(try workout(objectID: objectID, db))
        case HKWorkoutRouteTypeIdentifier:
            let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM route_locations WHERE route_id = ?"),
                                         arguments: [objectID]) ?? 0
            return .workoutRoute(locationCount: count)
        default:
            return nil
        }
    }

    private static func workout(objectID: Int64, _ db: Database) throws -> WorkoutValue {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT activity_type, duration, total_energy_kcal, total_distance_m FROM workouts WHERE object_id = ?
            """), arguments: [objectID]) else {
            throw StoreIntegrityError.missingWorkoutRow
        }
        let energy: Double? = row["total_energy_kcal"]
        let distance: Double? = row["total_distance_m"]
        let events = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT type, start_us, end_us, metadata FROM workout_events WHERE workout_id = ? ORDER BY position
            """), arguments: [objectID]).map { event in
            WorkoutEventRecord(type: event["type"], startDate: Date(microsecondsSince1970: event["start_us"]),
                               endDate: Date(microsecondsSince1970: event["end_us"]),
                               metadata: try MetadataCoding.decode(event["metadata"]))
        }
        var workout = WorkoutValue(activityType: UInt(row["activity_type"] as Int64), duration: row["duration"],
                                   totalEnergyBurned: energy.map { RecordedQuantity($0, unit: HKUnit.kilocalorie().unitString) },
                                   totalDistance: distance.map { RecordedQuantity($0, unit: HKUnit.meter().unitString) },
                                   events: events)
        try WorkoutActivityRows.read(db, objectID: objectID, into: &workout)
        return workout
    }
}
