import GRDB

extension StoreSchema {
    /// Temporary grants (`GrantLimits`): a read grant may cover only a recent window of other
    /// sources' data, and any authorized grant may expire. Both NULL for an ordinary grant, so
    /// every grant stored before this migration keeps its meaning.
    static func registerTemporaryGrants(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8: temporary grants") { db in
            try db.execute(sql: """
                -- How far back, in microseconds before each query, other sources' samples are visible.
                ALTER TABLE grants ADD COLUMN window_us INTEGER CHECK (window_us IS NULL OR window_us > 0);
                -- From this instant (microseconds since 1970) the grant reads as denied.
                ALTER TABLE grants ADD COLUMN expires_us INTEGER;
                -- The next expiry is one index probe (GrantRepository.nextExpiry).
                CREATE INDEX grants_by_expiry ON grants(expires_us) WHERE expires_us IS NOT NULL;
                """)
            try installPlannerStatistics(db)
        }
    }

    /// Fixed query-planner statistics (SQLite's sqlite_stat1, "manual control of query plans")
    /// for every index on `objects` and `deleted_objects` (a table with some indexes pinned and
    /// others not gets plans from guesses; index added later must be pinned here too): a million rows, a hundred thousand per type, a hundred per type
    /// and source (an equality on the source is very selective). Fixed, so plans do not change as
    /// data arrives — a privacy property, not a speed-up: without them SQLite
    /// believes a type holds ten rows and answers a window-scoped read (`ReadScope.recentWindow`)
    /// by scanning every source's samples of the type, so its time would grow with samples the
    /// app may not see. Never run ANALYZE on the store: measured statistics of a small store
    /// would bring that plan back.
    static func installPlannerStatistics(_ db: Database) throws {
        try db.execute(sql: """
            ANALYZE sqlite_master;
            DELETE FROM sqlite_stat1 WHERE tbl IN ('objects', 'deleted_objects');
            INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
                ('objects', 'objects_by_type_start', '1000000 100000 1'),
                ('objects', 'objects_by_type_source_start', '1000000 100000 100 1'),
                ('objects', 'objects_by_type_change', '1000000 100000 1'),
                ('objects', 'objects_by_type_source_change', '1000000 100000 100 1'),
                ('objects', 'objects_by_change', '1000000 1'),
                ('objects', 'objects_by_source_sync', '1000000 100000 1'),
                ('deleted_objects', 'deleted_by_type_change', '100000 10000 1'),
                ('deleted_objects', 'deleted_by_type_source_change', '100000 10000 10 1'),
                ('deleted_objects', 'deleted_by_change', '100000 1');
            ANALYZE sqlite_master;
            """)
    }
}
