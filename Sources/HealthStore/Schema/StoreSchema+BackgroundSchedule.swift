import GRDB

extension StoreSchema {
    /// Background delivery's schedule, so a restart or a kill of healthd neither loses a launch
    /// that was owed nor forgets a frequency's last launch or a back-off: per registration, the
    /// change number its changes were checked through, where what is owed starts, and the
    /// launch history. Rows go with their registration.
    static func registerBackgroundSchedule(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13: background delivery schedule") { db in
            try db.execute(sql: """
                CREATE TABLE background_schedule (
                    app_id TEXT NOT NULL,
                    type_identifier TEXT NOT NULL,
                    checked_through INTEGER NOT NULL,   -- change number its changes were checked through
                    owed_after INTEGER,                 -- not null: a launch is owed for changes after it
                    last_launch_us INTEGER,             -- wall clock, microseconds since 1970
                    unanswered INTEGER NOT NULL DEFAULT 0,
                    retry_not_before_us INTEGER,
                    suspended INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (app_id, type_identifier),
                    FOREIGN KEY (app_id, type_identifier)
                        REFERENCES background_deliveries(app_id, type_identifier) ON DELETE CASCADE
                ) WITHOUT ROWID;
                """)
        }
    }
}
