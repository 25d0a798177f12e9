import GRDB

extension StoreSchema {
    /// v29: document samples (`HKCDADocumentSample`): each document's bytes, one row per object,
    /// hanging off `objects` with ON DELETE CASCADE (deleting the sample can never leave its
    /// document behind). The bytes are stored as the app gave them — healthd never parses them —
    /// and live in this side table so that scans of `objects` never page through documents.
    static func registerDocuments(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v29: documents") { db in
            try db.execute(sql: """
                CREATE TABLE documents (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    data BLOB NOT NULL            -- the document, opaque (at most DocumentRules.maximumBytes)
                );
                """)
        }
    }
}
