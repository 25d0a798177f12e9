import GRDB

extension StoreSchema {
    /// v39: workout effort relations that left with their workout. Deleting a workout takes its
    /// relations and the removals it kept (ON DELETE CASCADE, v32 and v35), so a reader continuing
    /// `HKWorkoutEffortRelationshipQuery` from an anchor was never told the relation went. Before the
    /// workout's row goes (`ObjectDeleter` → `WorkoutEffortChanges.workoutLeaving`), each relation it
    /// had — with the deletion's change number — and each removal it kept — with its own — is
    /// copied here by UUID (the rows are gone), with the sample's type, source and start; the
    /// workout's source and start are kept once in `workout_effort_departed_workouts`. Those are
    /// what the reader's sample scope and workout scope decide on (`SampleSQL.visibility`), so a
    /// departed relation is reported exactly to the readers who could see it.
    static func registerWorkoutEffortDeparted(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v39: workout effort relations departed with their workout") { db in
            try db.execute(sql: """
                CREATE TABLE workout_effort_departed_workouts (
                    workout_uuid BLOB PRIMARY KEY,
                    source_id INTEGER NOT NULL,
                    start_us INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE workout_effort_departed (
                    workout_uuid BLOB NOT NULL,      -- its workout_effort_departed_workouts row
                    activity_uuid BLOB,              -- NULL: the workout itself
                    type_id INTEGER NOT NULL,        -- the sample's, as it was
                    source_id INTEGER NOT NULL,
                    start_us INTEGER NOT NULL,
                    change_seq INTEGER NOT NULL
                );
                CREATE INDEX workout_effort_departed_by_change ON workout_effort_departed(change_seq);
                """)
        }
    }
}
