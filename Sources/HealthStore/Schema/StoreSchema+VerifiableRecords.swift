import GRDB

extension StoreSchema {
    /// `verifiable_records`: the user's SMART Health Cards (`healthctl verifiable-records import`),
    /// apart from `objects`: HealthKit keeps them out of the sample store (no sample query, no
    /// grant, no change feed reaches them); an app reads one only when the user picks it in answer
    /// to its `HKVerifiableClinicalRecordQuery`. The card as issued (`jws`) is unique: importing
    /// the same card again stores nothing new. Arrays are JSON text.
    static func registerVerifiableRecords(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v67: verifiable clinical records") { db in
            try db.execute(sql: """
                CREATE TABLE verifiable_records (
                    uuid BLOB PRIMARY KEY,
                    source_type TEXT NOT NULL,
                    record_types TEXT NOT NULL,
                    issuer TEXT NOT NULL,
                    subject_name TEXT NOT NULL,
                    subject_birth_date TEXT NOT NULL,
                    issued_us INTEGER NOT NULL,
                    relevant_us INTEGER NOT NULL,
                    expiration_us INTEGER,
                    item_names TEXT NOT NULL,
                    jws BLOB NOT NULL UNIQUE,
                    verification TEXT NOT NULL,
                    imported_us INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
    }
}
