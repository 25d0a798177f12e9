import GRDB
import HealthModel

/// The one way an object is associated with an app's workout: a workout save's own
/// associations (`WorkoutActivityRows`), `addSamplesToWorkout` (`SampleRepository.associateOwned`)
/// and a finished route (`SampleRepository.finishDraft`), each also when merged from the pending
/// journal. Every caller has already checked that both objects are the app's own.
///
/// Why one place: a route new to the workout must fit under the cap
/// (`SampleRepository.checkRouteRoom`, `SampleLimits.maximumRoutesPerWorkout`), because deleting
/// the workout deletes its routes in one writer transaction. Until session 22 a workout save
/// associated any number of the app's routes without the check (privreview22): a workout naming
/// up to `maximumWorkoutAssociations` finished routes held them all. Imports
/// (`SampleRepository+Import`) are the user's, not an app's, and keep what the export holds.
enum WorkoutAssociation {
    /// Associates object `sampleID` with workout `workoutID` at change number `change` (nil: the
    /// store's current one, the write's own). Associating an object twice is no error and no new
    /// route.
    static func add(_ db: Database, workoutID: Int64, sampleID: Int64, isRoute: Bool, change: Int64? = nil) throws {
        if isRoute,
           try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM workout_associations WHERE workout_id = ? AND sample_id = ?"),
                            arguments: [workoutID, sampleID]) == nil {
            try SampleRepository.checkRouteRoom(workoutID: workoutID, db)
        }
        try insert(db, workoutID: workoutID, sampleID: sampleID, change: change)
    }

    /// The one statement that writes an association row, with no rule of its own: `add`'s, and
    /// an import's, which keeps what the export holds. The row carries the sample's type (v72),
    /// by which `predicateForObjects(from: workout)` reads one type's associations only.
    static func insert(_ db: Database, workoutID: Int64, sampleID: Int64, change: Int64? = nil) throws {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO workout_associations (workout_id, sample_id, change_seq, sample_type_id)
            VALUES (?1, ?2, coalesce(?3, (SELECT value FROM counters WHERE name = 'change')),
                    (SELECT type_id FROM objects WHERE id = ?2))
            """).execute(arguments: [workoutID, sampleID, change])
    }
}
