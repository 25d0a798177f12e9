import GRDB

extension StoreSchema {
    /// Each app's own unprivileged uid for launches by root (`AppSandboxIDRange`). No foreign
    /// key to `apps`: a number stays with its app id for good, so files an app once owned never
    /// pass to another app that might later get a freed number.
    static func registerSandboxIDs(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14: per-app sandbox uids") { db in
            try db.execute(sql: """
                CREATE TABLE app_sandbox_ids (
                    app_id TEXT PRIMARY KEY,
                    uid INTEGER NOT NULL UNIQUE,
                    assigned_us INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
