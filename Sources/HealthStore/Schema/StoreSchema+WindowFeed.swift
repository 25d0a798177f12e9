import GRDB

extension StoreSchema {
    /// The change feed under a window-scoped grant (issue 11, class 2): deletions are found by
    /// (type, start) like additions (`objects_by_type_start`), so the feed reads the window's rows
    /// and the app's own through two index ranges, never the hidden rows changed after a cursor
    /// (`SampleSQL.feedVisibility`). Deleted rows from before v4 have no start and are never in a
    /// window. The new index gets fixed planner statistics like every other index on the table
    /// (`installPlannerStatistics`, v8): a table with one index unpinned gets plans from guesses.
    static func registerWindowFeed(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12: window-scoped change feed") { db in
            try db.execute(sql: """
                CREATE INDEX deleted_by_type_start ON deleted_objects(type_id, start_us);
                DELETE FROM sqlite_stat1 WHERE tbl = 'deleted_objects' AND idx = 'deleted_by_type_start';
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('deleted_objects', 'deleted_by_type_start', '100000 10000 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
