import GRDB

extension StoreSchema {
    /// v72: each workout association carries its sample's type, indexed after the workout, so
    /// that the samples of one type associated with a workout are found without reading the
    /// others. `predicateForObjects(from: workout)` read every association of the workout and
    /// looked each sample up before its type and scope were tested (redteam23, F2, session 23):
    /// a reader's query cost what the workout's samples of types it may not read cost. For a
    /// reader of every source's rows of the type the predicate now reads only that type's
    /// associations (`SampleSQL.workoutSamples`); for any narrower scope it is tested per
    /// visible row. The type of an object never changes, so the copy cannot go stale.
    static func registerAssociationType(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v72: workout associations carry their sample's type") { db in
            try db.execute(sql: """
                ALTER TABLE workout_associations ADD COLUMN sample_type_id INTEGER NOT NULL DEFAULT 0;
                UPDATE workout_associations
                    SET sample_type_id = coalesce((SELECT type_id FROM objects WHERE id = sample_id), 0);
                CREATE INDEX workout_associations_by_type ON workout_associations(workout_id, sample_type_id, sample_id);
                """)
        }
    }
}
