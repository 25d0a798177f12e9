import GRDB

extension StoreSchema {
    /// `object_read_offers`: which objects of a type read per document (`PerObjectAuthorization.
    /// offeredTypes`: CDA documents) the user has decided on for an app, allowed or not. Apple:
    /// "The user is asked to authorize each CDA document the first time that document is returned
    /// by an HKDocumentQuery" (developer.apple.com/documentation/healthkit/hkcdadocumentsample/
    /// document): a document query offers the user only documents without a row here. A row says
    /// nothing about the answer (`object_read_grants` holds the allowed ones), so nothing an app
    /// can see depends on it. Cascades from `apps` and `objects` as the grants do; revoking a
    /// grant removes its row, so the document is offered again.
    static func registerObjectReadOffers(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v48: per-document read offers") { db in
            try db.execute(sql: """
                CREATE TABLE object_read_offers (
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    PRIMARY KEY (app_id, object_id)
                ) WITHOUT ROWID;
                CREATE INDEX object_read_offers_by_object ON object_read_offers(object_id);
                """)
        }
    }
}
