import GRDB

extension StoreSchema {
    /// v71: keys an older version stored in two spellings (`KeySpellingUpgrade`), and
    /// `store_upgrade_notices`, where a migration leaves what it changed for the user to be told
    /// (healthd logs the notices of the migrations it ran when it opens the store,
    /// `HealthDatabase.upgradeNotices`). Kept, one row per sentence: the log of that start may be
    /// gone by the time someone asks why a source changed.
    static func registerKeySpellings(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(keySpellingsMigration) { db in
            try db.execute(sql: """
                CREATE TABLE store_upgrade_notices (
                    sequence INTEGER PRIMARY KEY,
                    migration TEXT NOT NULL,
                    notice TEXT NOT NULL
                );
                """)
            for notice in try KeySpellingUpgrade.run(db) {
                try db.execute(sql: "INSERT INTO store_upgrade_notices (migration, notice) VALUES (?, ?)",
                               arguments: [keySpellingsMigration, notice])
            }
        }
    }

    static let keySpellingsMigration = "v71: keys stored in two spellings merged or kept apart"
}
