import GRDB

extension StoreSchema {
    /// v38: the grant a deleted dose event was read through. A deleted object's tombstone keeps the
    /// apps that could read it (`deleted_object_read_grants`, v30), so each of them — and no other
    /// app — learns of the deletion. A dose event is read through its medication's grant, not a
    /// grant of its own, so revoking that medication (or answering its request again without it)
    /// must take the dose tombstones' kept grants too: otherwise the app is still told of a deleted
    /// dose of a medication it may no longer read. The link from the dose to its medication goes
    /// with the dose row, so the kept grant records the medication's UUID (`through_uuid`, NULL for
    /// an object granted itself).
    static func registerDeletedGrantThrough(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v38: the medication a deleted dose's kept grant came through") { db in
            try db.execute(sql: "ALTER TABLE deleted_object_read_grants ADD COLUMN through_uuid BLOB")
        }
    }
}
