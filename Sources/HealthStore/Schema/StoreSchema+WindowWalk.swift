import GRDB

extension StoreSchema {
    /// v68: the window's indexes carry the change number, so a re-check under a window grant
    /// (`SampleSQL.laterChanges`) walks the in-window rows by (type, start) and tests each
    /// entry's change number without reading the table — rather than every row of the type
    /// committed since, hidden rows outside the window included (privacy review, session 21,
    /// finding 2). The indexes are extended, not added (issue 17 counts the B-trees a save
    /// writes): `objects_by_type_start` keeps the row id before the change number, so reads
    /// ordered by (start, id) still come out of it in order. Both keep fixed planner statistics
    /// (`installPlannerStatistics`, v8).
    static func registerWindowWalk(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v68: window indexes carry the change number") { db in
            try db.execute(sql: """
                DROP INDEX objects_by_type_start;
                CREATE INDEX objects_by_type_start ON objects(type_id, start_us, id, change_seq);
                DROP INDEX deleted_by_type_start;
                CREATE INDEX deleted_by_type_start ON deleted_objects(type_id, start_us, change_seq);
                DELETE FROM sqlite_stat1 WHERE idx IN ('objects_by_type_start', 'deleted_by_type_start');
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
                    ('objects', 'objects_by_type_start', '1000000 100000 1 1 1'),
                    ('deleted_objects', 'deleted_by_type_start', '100000 10000 1 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
