import GRDB

extension StoreSchema {
    /// Per-app storage use (`StorageUse`): what each object was charged to its app
    /// (`objects.charged`, NULL for the user's and imported objects, which no app is charged for),
    /// and each app's count as last written, with the bound the user set (`app_storage`; NULL: the
    /// default). Kept apart from `apps`: an app's data and its count outlive its removal, and a
    /// reinstall under the same id finds them.
    ///
    /// Objects stored before this migration have no charge; their app's count starts from the same
    /// estimate of their rows (`StoredSize.legacyObjectSQL`) and of their apps' tombstones, which a
    /// deletion of such a row gives back in turn. One pass over both tables, once.
    static func registerAppStorage(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v66: per-app storage use and bounds") { db in
            try db.execute(sql: """
                ALTER TABLE objects ADD COLUMN charged INTEGER;
                CREATE TABLE app_storage (
                    app_id TEXT PRIMARY KEY,
                    used INTEGER NOT NULL,
                    bound INTEGER
                ) WITHOUT ROWID;
                INSERT INTO app_storage (app_id, used)
                SELECT s.bundle_identifier, sum(part.bytes) FROM (
                    SELECT o.source_id AS source_id, \(StoredSize.legacyObjectSQL) AS bytes FROM objects o
                    UNION ALL
                    SELECT d.source_id, \(StoredSize.tombstoneRow) + coalesce(length(CAST(d.sync_identifier AS BLOB)), 0)
                    FROM deleted_objects d
                ) part JOIN sources s ON s.id = part.source_id
                WHERE substr(s.bundle_identifier, 1, 1) <> '@'
                GROUP BY s.bundle_identifier;
                """)
        }
    }
}
