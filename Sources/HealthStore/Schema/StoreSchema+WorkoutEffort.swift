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
