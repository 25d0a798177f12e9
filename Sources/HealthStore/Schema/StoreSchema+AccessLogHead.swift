import GRDB

extension StoreSchema {
    /// Two pages fewer in every logged commit (issue 17). Each B-tree a commit changes is at least
    /// one page of its WAL — a frame encrypted, written, synced and later checkpointed — and every
    /// app save commits its access-log entry in its own transaction:
    ///
    /// - The chain's head moves from a table of its own (v3's `access_log_head`) into `counters`,
    ///   as the row `access_log_head` beside the change number, which every save bumps too: one
    ///   page for both. It keeps what it holds (the newest sequence, in `value`, and its hash) and
    ///   what it is for: deleting the newest entries leaves it pointing past the end of the log
    ///   (`AccessLogRepository.verify`). A store's existing head is carried over.
    /// - `access_log_by_app (app_id, sequence)` is dropped: no plan used it. The one per-app
    ///   listing (`AccessLogRepository.entries`) matches the app as subject *or* actor, and with no
    ///   index on `actor` SQLite reads the log by sequence whatever this index offers
    ///   (`AccessLogHeadMigrationTests` pins that plan).
    ///
    /// A one-sample save writes 8 frames instead of 10 (`WALFramesPerSaveTests`).
    static func registerAccessLogHeadInCounters(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v37: the access log's head beside the change number, its unused index dropped") { db in
            try db.execute(sql: """
                ALTER TABLE counters ADD COLUMN hash BLOB;
                INSERT INTO counters (name, value, hash)
                    SELECT '\(AccessLogRepository.headCounter)', sequence, hash FROM access_log_head WHERE id = 1;
                DROP TABLE access_log_head;
                DROP INDEX access_log_by_app;
                """)
        }
    }
}
