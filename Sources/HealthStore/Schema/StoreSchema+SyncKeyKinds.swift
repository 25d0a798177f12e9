import GRDB
import HealthModel

extension StoreSchema {
    /// `import_sync_key_kinds`: which kinds of sync key (plain, dated) each import source holds
    /// (`SyncKeyKinds`), so an import searches only under those. Every import source that exists
    /// now may hold both (an older healthctl stored plain keys, session 14's dated ones): both are
    /// noted for it, so its lookups stay what they were; a source made later starts with none.
    static func registerSyncKeyKinds(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v58: the kinds of sync key each import source holds") { db in
            try db.execute(sql: """
                CREATE TABLE import_sync_key_kinds (
                    source_id INTEGER PRIMARY KEY REFERENCES sources(id),
                    dated INTEGER NOT NULL CHECK (dated IN (0, 1)),
                    undated INTEGER NOT NULL CHECK (undated IN (0, 1))
                );
                INSERT INTO import_sync_key_kinds (source_id, dated, undated)
                    SELECT id, 1, 1 FROM sources WHERE substr(bundle_identifier, 1, \(SourceRecord.importedPrefix.utf8.count)) = '\(SourceRecord.importedPrefix)';
                """)
        }
    }
}
