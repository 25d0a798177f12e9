import GRDB

extension StoreSchema {
    /// The locked store's pending journals (`PendingJournalKeys`): per lock, its X25519 key pair —
    /// the private half only here, inside the encrypted store, so that a locked broker cannot read
    /// what it journals — and how far the journal has been merged. The merge advances
    /// `applied_through` in the same transaction as each entry's effects: exactly once.
    static func registerPendingJournal(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v16: pending journal keys") { db in
            try db.execute(sql: """
                CREATE TABLE pending_journal_keys (
                    generation INTEGER PRIMARY KEY,
                    public_key BLOB NOT NULL,
                    private_key BLOB NOT NULL,
                    applied_through INTEGER NOT NULL DEFAULT 0   -- last merged entry's sequence
                );
                """)
        }
    }
}
