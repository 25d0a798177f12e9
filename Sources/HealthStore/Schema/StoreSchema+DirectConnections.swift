import GRDB

extension StoreSchema {
    /// The apps the user allowed to connect to the app socket directly, identified by their
    /// peer credentials and executable path instead of a launch binding (the weaker mode,
    /// SECURITY.md). No row: launch-bound connections only.
    static func registerDirectConnections(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11: direct connection opt-in") { db in
            try db.execute(sql: """
                CREATE TABLE direct_connection_apps (
                    app_id TEXT PRIMARY KEY REFERENCES apps(id) ON DELETE CASCADE,
                    -- the executable the user allowed; a reinstall naming another one revokes it
                    executable TEXT NOT NULL,
                    allowed_us INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
