import GRDB

extension StoreSchema {
    /// The per-source sync-identifier index keyed by a compact integer (`SyncKey`) instead of the
    /// identifier text (v2's `objects_by_source_sync`): same lookups, about a quarter of the index's
    /// pages, so a commit that stores thousands of imported identifiers rewrites a quarter as many
    /// (issue 16). Every identifier already stored gets its key here, so a file imported before
    /// is recognized when imported again; the lookup compares the identifier as well, so the new
    /// index is not UNIQUE (`SyncKey` says why that keeps one object per identifier).
    ///
    /// The planner's fixed statistics (v8, `installPlannerStatistics`) move to the new index with
    /// the figures the old one had: a source holds many objects, a key almost always one.
    static func registerSyncKey(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v36: sync identifiers indexed by a compact key") { db in
            db.add(function: SyncKey.function)
            defer { db.remove(function: SyncKey.function) }
            try db.execute(sql: """
                ALTER TABLE objects ADD COLUMN sync_key INTEGER;
                UPDATE objects SET sync_key = \(SyncKey.function.name)(sync_identifier) WHERE sync_identifier IS NOT NULL;
                DROP INDEX objects_by_source_sync;
                CREATE INDEX objects_by_source_sync_key ON objects(source_id, sync_key) WHERE sync_key IS NOT NULL;
                DELETE FROM sqlite_stat1 WHERE tbl = 'objects' AND idx IN ('objects_by_source_sync', 'objects_by_source_sync_key');
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('objects', 'objects_by_source_sync_key', '1000000 100000 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
