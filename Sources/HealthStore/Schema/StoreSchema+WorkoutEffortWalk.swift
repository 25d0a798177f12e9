import GRDB

extension StoreSchema {
    /// v69: the ranges a reader's scope names, on the three tables of effort relation changes
    /// (relations made, removals, relations departed with their workout), each row of which keeps
    /// its sample's type, source and start (v35, v39, v60). A wake-up check
    /// (`WorkoutEffortRelationSQL.anyVisibleChange`) and a relationship query's reading after an
    /// anchor walk one of them per scope (`WorkoutEffortRelationSQL.laterChanges`):
    /// - every source's rows: (type, change);
    /// - the app's own rows: (type, source, change);
    /// - a window: the app's own rows, and (type, start, change) from the window on with the change
    ///   number tested in the index entry.
    /// Before, each walked `…_by_change` (change number only): every relation change since, every
    /// type's and source's, dropping the hidden ones afterwards, so a check cost what other apps'
    /// hidden relations cost (session 22). The change-only index becomes (type, change), and the
    /// commit watcher's fallback query, which asks every type, skips across the few types
    /// (fixed statistics say so). Two B-trees per table are added: relations are written one per
    /// relate call, removals and departures one per relation that goes — never per saved sample.
    static func registerWorkoutEffortWalk(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v69: effort relation changes walked by the scope's ranges") { db in
            var sql = ""
            for table in ["workout_effort_relations", "workout_effort_removals", "workout_effort_departed"] {
                sql += """
                    DROP INDEX \(table)_by_change;
                    CREATE INDEX \(table)_by_type_change ON \(table)(type_id, change_seq);
                    CREATE INDEX \(table)_by_type_source_change ON \(table)(type_id, source_id, change_seq);
                    CREATE INDEX \(table)_by_type_start ON \(table)(type_id, start_us, change_seq);

                    """
            }
            try db.execute(sql: sql + """
                DELETE FROM sqlite_stat1 WHERE idx IN
                    ('workout_effort_relations_by_change', 'workout_effort_removals_by_change', 'workout_effort_departed_by_change');
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
                    ('workout_effort_relations', 'workout_effort_relations_by_type_change', '1000000 500000 1'),
                    ('workout_effort_relations', 'workout_effort_relations_by_type_source_change', '1000000 500000 1000 1'),
                    ('workout_effort_relations', 'workout_effort_relations_by_type_start', '1000000 500000 10 1'),
                    ('workout_effort_removals', 'workout_effort_removals_by_type_change', '100000 50000 1'),
                    ('workout_effort_removals', 'workout_effort_removals_by_type_source_change', '100000 50000 100 1'),
                    ('workout_effort_removals', 'workout_effort_removals_by_type_start', '100000 50000 10 1'),
                    ('workout_effort_departed', 'workout_effort_departed_by_type_change', '100000 50000 1'),
                    ('workout_effort_departed', 'workout_effort_departed_by_type_source_change', '100000 50000 100 1'),
                    ('workout_effort_departed', 'workout_effort_departed_by_type_start', '100000 50000 10 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
