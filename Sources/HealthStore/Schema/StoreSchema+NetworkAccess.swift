import GRDB

extension StoreSchema {
    /// Network access: whether an app's manifest asks for it (`apps.network`) and whether the
    /// user allowed it (`network_apps`). An app gets a network only with both.
    static func registerNetworkAccess(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15: app network access") { db in
            try db.execute(sql: """
                ALTER TABLE apps ADD COLUMN network INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE network_apps (
                    app_id TEXT PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
                    allowed_us INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
