import Foundation
import GRDB
import HealthModel

/// Every way a workout effort relation changes, in one place: an app relating or unrelating (its
/// call, or at unlock its pending-journal entry) and a related sample leaving the store
/// (`ObjectDeleter`). Each change that alters a relation takes a change number of its own, so
/// `HKWorkoutEffortRelationshipQuery`'s anchor finds exactly what changed after it
/// (`SampleRepository.workoutEffortRelations(after:)`); one that alters nothing takes none.
enum WorkoutEffortChanges {
    /// Relates (or unrelates) `appID`'s effort sample with the workout — or one activity of it —
    /// in `db`. The rules (SECURITY.md "Workout effort relations"): the sample must be the app's
    /// own and of an effort type, the workout visible within `workouts` (the app's read scope
    /// for HKWorkoutType); a hidden workout and a missing one fail alike. Relating twice and
    /// unrelating a relation that does not exist change nothing and succeed.
    static func apply(sample sampleUUID: UUID, workout workoutUUID: UUID, activity activityUUID: UUID?, appID: String,
                      workouts: ReadScope, relate: Bool, _ db: Database) throws {
        let ids = try keys(sample: sampleUUID, workout: workoutUUID, activity: activityUUID, appID: appID, workouts: workouts, db)
        let key: StatementArguments = [ids.workout, ids.activityPosition, ids.sample]
        let related = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM workout_effort_relations WHERE workout_id = ? AND activity_position = ? AND sample_id = ?)
            """, arguments: key) ?? false
        guard related != relate else { return }
        let change = try ObjectDeleter.nextChange(db)
        if relate {
            // With the sample's type, source and start and the workout's source and start: what
            // a reader's two scopes decide on (v60, v70).
            try db.execute(sql: """
                INSERT INTO workout_effort_relations
                    (workout_id, activity_position, sample_id, type_id, source_id, start_us, workout_source_id, workout_start_us, change_seq)
                SELECT w.id, ?, s.id, s.type_id, s.source_id, s.start_us, w.source_id, w.start_us, ?
                FROM objects s CROSS JOIN objects w WHERE s.id = ? AND w.id = ?
                """, arguments: [ids.activityPosition, change, ids.sample, ids.workout])
        } else {
            try recordRemovals(db, where: "r.workout_id = ? AND r.activity_position = ? AND r.sample_id = ?", key, change: change,
                               keepingSample: true)
            try db.execute(sql: "DELETE FROM workout_effort_relations WHERE workout_id = ? AND activity_position = ? AND sample_id = ?",
                           arguments: key)
        }
    }

    /// The object `rowID` leaves the store under `change` (`ObjectDeleter`, before the row goes):
    /// each relation it has as an effort sample is recorded as removed; the relations themselves
    /// go with the row (ON DELETE CASCADE). One indexed lookup that finds nothing for any other object.
    /// A removal that kept this sample (an unrelate) lets it go: the sample left the store, and
    /// its row id may be reused by another object.
    static func objectLeaving(_ rowID: Int64, change: Int64, _ db: Database) throws {
        try recordRemovals(db, where: "r.sample_id = ?", [rowID], change: change, keepingSample: false)
        try db.cachedStatement(sql: "UPDATE workout_effort_removals SET sample_id = NULL WHERE sample_id = ?").execute(arguments: [rowID])
    }

    /// The workout `rowID` leaves the store under `change` (`ObjectDeleter`, before the row goes):
    /// each relation it has is recorded as departed with that change, and each removal it kept
    /// with the removal's own, by UUID (v39), so a reader continuing from an anchor is told the
    /// relation went — if it could see it: each departure keeps the workout's source and start
    /// for its workout scope (v70). Indexed lookups by the workout's key that find nothing for any
    /// other object.
    static func workoutLeaving(_ rowID: Int64, change: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO workout_effort_departed
                (workout_uuid, activity_uuid, type_id, source_id, start_us, workout_source_id, workout_start_us, change_seq)
            SELECT w.uuid, a.uuid, s.type_id, s.source_id, s.start_us, w.source_id, w.start_us, ?
            FROM workout_effort_relations r
            JOIN objects w ON w.id = r.workout_id
            JOIN objects s ON s.id = r.sample_id
            LEFT JOIN workout_activities a ON a.workout_id = r.workout_id AND a.position = r.activity_position
            WHERE r.workout_id = ?
            """).execute(arguments: [change, rowID])
        try db.cachedStatement(sql: """
            INSERT INTO workout_effort_departed
                (workout_uuid, activity_uuid, type_id, source_id, start_us, workout_source_id, workout_start_us, change_seq)
            SELECT w.uuid, a.uuid, m.type_id, m.source_id, m.start_us, w.source_id, w.start_us, m.change_seq
            FROM workout_effort_removals m
            JOIN objects w ON w.id = m.workout_id
            LEFT JOIN workout_activities a ON a.workout_id = m.workout_id AND a.position = m.activity_position
            WHERE m.workout_id = ?
            """).execute(arguments: [rowID])
    }

    /// A removal keeps the sample's type, source and start and the workout's source and start
    /// (what a reader's two scopes decide on, v70) and
    /// the change number the relation was made under; an unrelate (`keepingSample`) keeps the
    /// sample too. Together they let a stream's later reading, bounded by its first
    /// (`ReadSnapshot`), answer the relation as it was then (`WorkoutEffortRelationSQL`, v60).
    /// A deleted sample is not kept: it left the store, and leaves every later reading.
    private static func recordRemovals(_ db: Database, where condition: String, _ arguments: StatementArguments,
                                       change: Int64, keepingSample: Bool) throws {
        try db.cachedStatement(sql: """
            INSERT INTO workout_effort_removals
                (workout_id, activity_position, type_id, source_id, start_us, workout_source_id, workout_start_us, change_seq, sample_id,
                 related_seq)
            SELECT r.workout_id, r.activity_position, r.type_id, r.source_id, r.start_us, r.workout_source_id, r.workout_start_us, ?,
                   \(keepingSample ? "r.sample_id" : "NULL"), r.change_seq
            FROM workout_effort_relations r
            WHERE \(condition)
            """).execute(arguments: [change] + arguments)
    }

    /// The row keys of one relation, each side looked up under its rule.
    private static func keys(sample sampleUUID: UUID, workout workoutUUID: UUID, activity activityUUID: UUID?,
                             appID: String, workouts: ReadScope,
                             _ db: Database) throws -> (workout: Int64, activityPosition: Int64, sample: Int64) {
        guard let sample = try OwnedObjects.row(db, uuid: sampleUUID, appID: appID) else {
            throw HKError(.errorInvalidArgument, "the sample was not found among the samples this app saved")
        }
        try WorkoutEffortRules.checkEffortType(sample.typeIdentifier)
        // The workout within the app's workout scope: a hidden workout and a missing one give
        // the same nil from the same indexed lookup, and so the same error.
        let visible = SampleSQL.visibility(workouts, alias: "o")
        guard let workoutID = try Int64.fetchOne(db, sql: """
            SELECT o.id FROM objects o WHERE o.uuid = ? AND o.type_id = ? AND \(visible.sql)
            """, arguments: [workoutUUID, try SampleSQL.typeID(db, HKWorkoutTypeIdentifier)] + visible.arguments) else {
            throw HKError(.errorInvalidArgument, "the workout was not found among the workouts this app can read")
        }
        guard let activityUUID else { return (workoutID, -1, sample.id) }
        // The workout is visible, so whether the activity is one of its activities reveals nothing.
        guard let position = try Int64.fetchOne(db, sql: "SELECT position FROM workout_activities WHERE workout_id = ? AND uuid = ?",
                                                arguments: [workoutID, activityUUID]) else {
            throw HKError(.errorInvalidArgument, "the activity is not one of the workout's activities")
        }
        return (workoutID, position, sample.id)
    }
}
