import GRDB

extension StoreSchema {
    /// Statistics read every sample of a type in a range as (source, start, end, quantity), in
    /// source and start order, ties by row id (`StatisticsRepository`). The (type, source, start)
    /// index gave the order, but every row then cost a lookup in the table's B-tree — for a
    /// year of per-minute steps, half a million lookups and the decryption of every table page
    /// (issue 17). This index replaces it with the same leading columns, so every plan that
    /// used it still can (own-sample reads, the change feed's own-source ranges), followed by
    /// the row id (the statistics' tie order, so no sort) and the two values statistics read:
    /// their reads never touch the table.
    ///
    /// Same name, so plans and tests that name it keep reading as before; its fixed planner
    /// statistics (`installPlannerStatistics`, v8) get one figure per new column — "1": each is
    /// already unique after (type, source, start) as far as the planner needs to know.
    ///
    /// It also drops the two indexes on `change_seq` alone (`objects_by_change`,
    /// `deleted_by_change`, v1): no statement's plan uses them (`IndexUsageTests`). The commit
    /// watcher, the one reader of changes across types, is planned on the (type, change)
    /// indexes, one seek per stored type; every other change-feed read names its type.
    static func registerStatisticsIndex(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19: covering (type, source, start) index for statistics, unused change indexes dropped") { db in
            try db.execute(sql: """
                DROP INDEX objects_by_change;
                DROP INDEX deleted_by_change;
                DELETE FROM sqlite_stat1 WHERE idx IN ('objects_by_change', 'deleted_by_change');
                DROP INDEX objects_by_type_source_start;
                CREATE INDEX objects_by_type_source_start ON objects(type_id, source_id, start_us, id, end_us, quantity);
                DELETE FROM sqlite_stat1 WHERE tbl = 'objects' AND idx = 'objects_by_type_source_start';
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('objects', 'objects_by_type_source_start', '1000000 100000 100 1 1 1 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
