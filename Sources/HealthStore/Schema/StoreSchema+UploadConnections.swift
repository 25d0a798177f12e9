import GRDB

extension StoreSchema {
    /// v42: an attachment upload belongs to the connection that began it. `connection_number` is
    /// healthd's number for that connection (never sent to anyone): only it appends to or finishes
    /// the upload, and healthd drops the upload when it ends (`AttachmentRepository.
    /// dropUploads(connection:)`), so an app that disconnects or is killed mid-upload leaves
    /// nothing staged. Staged uploads are dropped at every open, so rows from before have none to
    /// keep: 0, which no connection has.
    static func registerUploadConnections(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v42: attachment uploads belong to their connection") { db in
            try db.execute(sql: """
                ALTER TABLE attachment_uploads ADD COLUMN connection_number INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX attachment_uploads_by_connection ON attachment_uploads(connection_number);
                """)
        }
    }
}
