import GRDB

extension StoreSchema {
    /// The tables a locked start needs (`LockedStartSnapshot`): what the grants copy holds.
    static let lockedStartTables = ["apps", "grants", "direct_connection_apps", "network_apps", "app_sandbox_ids"]

    /// Starting locked (`healthd --start-locked`, ARCHITECTURE.md "Starting locked"): one row
    /// naming the *next* pending journal — the key pair a lock or a locked start journals to; its
    /// private half stays in `pending_journal_keys`, its public half is here too because the
    /// snapshot carries it — and a counter that every change to apps, grants and opt-ins bumps
    /// through triggers. The triggers are the one place such a change is noticed, whatever wrote
    /// it (a grant, a revocation, an install, a removal's cascade, a merge): several of these
    /// tables are WITHOUT ROWID, which SQLite's update hook (GRDB's transaction observers) does
    /// not report, so the observer that rewrites the snapshot watches this one row instead.
    static func registerLockedStart(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v25: locked start") { db in
            try db.execute(sql: """
                CREATE TABLE locked_start (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    grants_changes INTEGER NOT NULL DEFAULT 0,
                    next_journal INTEGER,           -- pending_journal_keys.generation, NULL until made
                    next_public_key BLOB
                );
                INSERT INTO locked_start (id) VALUES (1);
                """)
            for table in lockedStartTables {
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(sql: """
                        CREATE TRIGGER locked_start_\(table)_\(event.lowercased()) AFTER \(event) ON \(table)
                        BEGIN UPDATE locked_start SET grants_changes = grants_changes + 1 WHERE id = 1; END;
                        """)
                }
            }
        }
    }
}
