import GRDB

extension StoreSchema {
    /// v33: attachments (HKAttachmentStore). Their bytes live in the store itself, in chunk rows
    /// encrypted by the page cipher like every other page: no attachment is ever a file of its
    /// own on disk. Keyed by row keys: an attachment belongs to its object's `objects` row and goes
    /// with it (ON DELETE CASCADE), so deleting the object — by any path, `ObjectDeleter` — leaves
    /// no attachment behind; its chunks go with the attachment.
    ///
    /// An upload is staged in `attachment_uploads` / `attachment_upload_chunks` until it is
    /// finished, and then moved into `attachments` / `attachment_chunks` in one transaction:
    /// nothing half-uploaded is ever listed or read. Staged rows of a dead upload are dropped by
    /// the app's next upload (after `AttachmentRepository.staleUploadSeconds`) and at every
    /// start (`AttachmentRepository.dropUploads`). Read only through `AttachmentRepository`.
    static func registerAttachments(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v33: attachments") { db in
            try db.execute(sql: """
                CREATE TABLE attachments (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    app_id TEXT NOT NULL,          -- the app that added it: its bytes count against that app
                    name TEXT NOT NULL,
                    content_type TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    created_us INTEGER NOT NULL,
                    metadata TEXT
                );
                CREATE INDEX attachments_by_object ON attachments(object_id, created_us);
                CREATE INDEX attachments_by_app ON attachments(app_id);
                CREATE TABLE attachment_chunks (
                    attachment_id INTEGER NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
                    offset INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    UNIQUE (attachment_id, offset)
                );
                CREATE TABLE attachment_uploads (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    app_id TEXT NOT NULL,
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    content_type TEXT NOT NULL,
                    size INTEGER NOT NULL,         -- declared at begin; the finish checks it
                    received INTEGER NOT NULL,
                    touched_us INTEGER NOT NULL,   -- the last begin or append
                    metadata TEXT
                );
                CREATE INDEX attachment_uploads_by_app ON attachment_uploads(app_id);
                CREATE INDEX attachment_uploads_by_object ON attachment_uploads(object_id);
                CREATE TABLE attachment_upload_chunks (
                    upload_id INTEGER NOT NULL REFERENCES attachment_uploads(id) ON DELETE CASCADE,
                    offset INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    UNIQUE (upload_id, offset)
                );
                """)
        }
    }
}
