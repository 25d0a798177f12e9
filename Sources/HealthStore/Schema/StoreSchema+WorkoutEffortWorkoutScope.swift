import GRDB

extension StoreSchema {
    /// v70: each effort relation change keeps its workout's source and start beside its sample's,
    /// and is walked by ranges that name the reader's workout scope too.
    ///
    /// Until v70 a wake-up check (`WorkoutEffortRelationSQL.anyVisibleChange`) and a relationship
    /// query's reading after an anchor walked the relations, removals and departures the sample
    /// scope admits (v69) and looked each one's workout up to drop the hidden ones: a reader of
    /// every source's scores that may not read workouts (or only its own, or a window of them)
    /// visited the relations other apps made between visible scores and workouts it cannot see,
    /// so its check cost followed how many were made since (session 23). Now every row carries
    /// `workout_source_id` and `workout_start_us` (fixed for a stored object, as the sample's),
    /// filled here for existing rows — relations and removals from their workout's row, departures
    /// from `workout_effort_departed_workouts`, which nothing reads any longer and goes — and each
    /// pair of a sample side and a workout side has its index (`laterChanges`):
    /// - (type, workout source, change) and (type, workout start, change): every source's scores,
    ///   the app's own workouts or a window of them;
    /// - (type, source, workout source, change) and (type, source, workout start, change): the
    ///   app's own scores with either;
    /// - (type, workout source, start, change): a window of scores on the app's own workouts;
    /// - (type, min(start, workout start), change, start, workout start): two windows, both starts
    ///   and the change tested in the entry.
    /// Six B-trees per table: relations are written one per relate call, removals and departures
    /// one per relation that goes — never per saved sample. Fixed statistics, as every index of
    /// these tables has (v60, v69).
    static func registerWorkoutEffortWorkoutScope(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v70: effort relation changes keep their workout's scope columns") { db in
            var sql = ""
            for table in ["workout_effort_relations", "workout_effort_removals", "workout_effort_departed"] {
                sql += """
                    ALTER TABLE \(table) ADD COLUMN workout_source_id INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE \(table) ADD COLUMN workout_start_us INTEGER NOT NULL DEFAULT 0;

                    """
            }
            // A relation and a removal go with their workout (ON DELETE CASCADE), and every
            // departure was written with its workout's row: each finds its values. COALESCE only
            // guards the NOT NULL column; source 0 is no app's and start 0 is in no window.
            sql += """
                UPDATE workout_effort_relations SET (workout_source_id, workout_start_us) =
                    (SELECT COALESCE(w.source_id, 0), COALESCE(w.start_us, 0) FROM (SELECT 1) LEFT JOIN objects w
                     ON w.id = workout_effort_relations.workout_id);
                UPDATE workout_effort_removals SET (workout_source_id, workout_start_us) =
                    (SELECT COALESCE(w.source_id, 0), COALESCE(w.start_us, 0) FROM (SELECT 1) LEFT JOIN objects w
                     ON w.id = workout_effort_removals.workout_id);
                UPDATE workout_effort_departed SET (workout_source_id, workout_start_us) =
                    (SELECT COALESCE(w.source_id, 0), COALESCE(w.start_us, 0) FROM (SELECT 1) LEFT JOIN workout_effort_departed_workouts w
                     ON w.workout_uuid = workout_effort_departed.workout_uuid);
                DROP TABLE workout_effort_departed_workouts;

                """
            var stats: [String] = []
            for (table, rows) in [("workout_effort_relations", 1_000_000), ("workout_effort_removals", 100_000),
                                  ("workout_effort_departed", 100_000)] {
                let indexes: [(String, String, String)] = [
                    ("by_type_workout_source_change", "type_id, workout_source_id, change_seq", "\(rows / 2) \(rows / 1_000) 1"),
                    ("by_type_workout_start", "type_id, workout_start_us, change_seq", "\(rows / 2) 10 1"),
                    ("by_type_source_workout_source_change", "type_id, source_id, workout_source_id, change_seq",
                     "\(rows / 2) \(rows / 1_000) \(rows / 10_000) 1"),
                    ("by_type_source_workout_start", "type_id, source_id, workout_start_us, change_seq", "\(rows / 2) \(rows / 1_000) 10 1"),
                    ("by_type_workout_source_start", "type_id, workout_source_id, start_us, change_seq", "\(rows / 2) \(rows / 1_000) 10 1"),
                    ("by_type_starts", "type_id, min(start_us, workout_start_us), change_seq, start_us, workout_start_us",
                     "\(rows / 2) 10 1 1 1"),
                ]
                for (name, columns, stat) in indexes {
                    sql += "CREATE INDEX \(table)_\(name) ON \(table)(\(columns));\n"
                    stats.append("('\(table)', '\(table)_\(name)', '\(rows) \(stat)')")
                }
            }
            try db.execute(sql: sql + """
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
                    \(stats.joined(separator: ",\n    "));
                ANALYZE sqlite_master;
                """)
        }
    }
}
