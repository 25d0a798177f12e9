import GRDB

extension StoreSchema {
    /// v32: workout effort relations (iOS 18's `relateWorkoutEffortSample`). A side table keyed
    /// by row keys, never by UUIDs: the workout's and the sample's `objects` rows, each deleted
    /// with either side (ON DELETE CASCADE), so deleting the workout or the sample leaves no
    /// relation behind; an activity is the workout's `workout_activities` position (-1: the
    /// workout itself), gone with its workout. Read only through
    /// `SampleRepository.workoutEffortRelations`, for workouts and samples the reader may see.
    static func registerWorkoutEffort(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v32: workout effort relations") { db in
            try db.execute(sql: """
                CREATE TABLE workout_effort_relations (
                    workout_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    activity_position INTEGER NOT NULL,  -- -1: the workout itself
                    sample_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    PRIMARY KEY (workout_id, activity_position, sample_id)
                ) WITHOUT ROWID;
                -- The cascade from a deleted sample, and predicate lookups by sample.
                CREATE INDEX workout_effort_relations_by_sample ON workout_effort_relations(sample_id);
                """)
        }
    }
}

extension StoreSchema {
    /// v35: what `HKWorkoutEffortRelationshipQuery`'s anchor needs — when each relation changed.
    /// A relation made records its change number (`change_seq`, 0 for those made before v35:
    /// they come before any anchor); a relation that goes — unrelated, or its sample deleted —
    /// leaves a row in `workout_effort_removals` with the change number and the sample's type,
    /// source and start, the three columns every read scope decides on (`SampleSQL.visibility`),
    /// so a removal is seen by exactly the readers who could see the sample. A removal goes with
    /// its workout (ON DELETE CASCADE): a deleted workout has no relationship left to report.
    static func registerWorkoutEffortChanges(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v35: workout effort relation changes") { db in
            try db.execute(sql: """
                ALTER TABLE workout_effort_relations ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX workout_effort_relations_by_change ON workout_effort_relations(change_seq);
                CREATE TABLE workout_effort_removals (
                    workout_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    activity_position INTEGER NOT NULL,  -- -1: the workout itself
                    type_id INTEGER NOT NULL,            -- the sample's, as it was
                    source_id INTEGER NOT NULL,
                    start_us INTEGER NOT NULL,
                    change_seq INTEGER NOT NULL
                );
                CREATE INDEX workout_effort_removals_by_change ON workout_effort_removals(change_seq);
                -- The cascade from a deleted workout.
                CREATE INDEX workout_effort_removals_by_workout ON workout_effort_removals(workout_id);
                """)
        }
    }
}
