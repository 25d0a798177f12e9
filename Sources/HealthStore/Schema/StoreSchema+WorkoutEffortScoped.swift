import GRDB

extension StoreSchema {
    /// v60: what a relation read needs beside each relation and each removal.
    ///
    /// - Each relation keeps its sample's type, source and start — the three columns every read
    ///   scope decides on (`SampleSQL.visibility`), fixed for a stored object — so a read tests
    ///   the reader's scope on the relation row and joins only visible samples; its indexes lead
    ///   with the workout, then the type, then the source or the start, the ranges a scope's terms
    ///   name (the cost of a read follows the visible relations, not the hidden scores on a workout
    ///   the reader sees).
    /// - A removal made by unrelating keeps the sample's row (`sample_id`) and, every removal, the
    ///   change number the relation was made under (`related_seq`): a stream's second reading,
    ///   bounded by its first (`ReadSnapshot`), puts back a relation that existed then and was
    ///   unrelated since. A removal's `sample_id` is cleared when that sample leaves the store
    ///   (`WorkoutEffortChanges.objectLeaving`: row ids may be reused). Removals made before v60
    ///   keep neither; no stream's snapshot is older than healthd's start, and so than them.
    /// - Fixed planner statistics for both tables (as v8 pins `objects`'): a workout may hold many
    ///   relations, a (workout, type, source) few, so the planner reads each visible workout's
    ///   relations by the ranges its scope names rather than all of them. Every index of each
    ///   table is pinned: a table with some pinned and others not gets plans from guesses.
    static func registerWorkoutEffortScoped(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v60: workout effort relations keep their sample's scope columns") { db in
            try db.execute(sql: """
                ALTER TABLE workout_effort_relations ADD COLUMN type_id INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE workout_effort_relations ADD COLUMN source_id INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE workout_effort_relations ADD COLUMN start_us INTEGER NOT NULL DEFAULT 0;
                UPDATE workout_effort_relations SET (type_id, source_id, start_us) =
                    (SELECT s.type_id, s.source_id, s.start_us FROM objects s WHERE s.id = workout_effort_relations.sample_id);
                CREATE INDEX workout_effort_relations_by_source
                    ON workout_effort_relations(workout_id, type_id, source_id, start_us);
                CREATE INDEX workout_effort_relations_by_start
                    ON workout_effort_relations(workout_id, type_id, start_us);
                ALTER TABLE workout_effort_removals ADD COLUMN sample_id INTEGER;
                ALTER TABLE workout_effort_removals ADD COLUMN related_seq INTEGER;
                CREATE INDEX workout_effort_removals_by_sample ON workout_effort_removals(sample_id) WHERE sample_id IS NOT NULL;
                CREATE INDEX workout_effort_removals_unrelated
                    ON workout_effort_removals(workout_id, type_id, source_id, start_us) WHERE sample_id IS NOT NULL;
                ANALYZE sqlite_master;
                DELETE FROM sqlite_stat1 WHERE tbl IN ('workout_effort_relations', 'workout_effort_removals');
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
                    ('workout_effort_relations', 'workout_effort_relations', '1000000 100 100 1'),
                    ('workout_effort_relations', 'workout_effort_relations_by_sample', '1000000 1'),
                    ('workout_effort_relations', 'workout_effort_relations_by_change', '1000000 1'),
                    ('workout_effort_relations', 'workout_effort_relations_by_source', '1000000 100 10 1 1'),
                    ('workout_effort_relations', 'workout_effort_relations_by_start', '1000000 100 10 1'),
                    ('workout_effort_removals', 'workout_effort_removals_by_change', '100000 1'),
                    ('workout_effort_removals', 'workout_effort_removals_by_workout', '100000 100'),
                    ('workout_effort_removals', 'workout_effort_removals_by_sample', '100000 1'),
                    ('workout_effort_removals', 'workout_effort_removals_unrelated', '100000 100 10 1 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
