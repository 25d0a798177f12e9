import GRDB

extension StoreSchema {
    /// Background delivery: which apps asked to be launched for changes of which types, and how
    /// often at most. Inside the encrypted store like everything else: the list of an app's
    /// types says what kind of health data it cares about.
    static func registerBackgroundDelivery(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9: background delivery") { db in
            try db.execute(sql: """
                CREATE TABLE background_deliveries (
                    app_id TEXT NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
                    type_identifier TEXT NOT NULL,
                    frequency INTEGER NOT NULL,   -- HKUpdateFrequency raw value, 1-4
                    enabled_us INTEGER NOT NULL,
                    PRIMARY KEY (app_id, type_identifier)
                ) WITHOUT ROWID;
                """)
        }
    }
}
