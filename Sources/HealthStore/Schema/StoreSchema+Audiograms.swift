import GRDB

extension StoreSchema {
    /// Audiograms: one `audiograms` row per object (it says how many points the sample has, so a
    /// sample with none is still told apart from a missing row), and one `audiogram_tests` row per
    /// ear tested at a frequency, in point order. Both hang off `objects` with ON DELETE CASCADE,
    /// so deleting the sample never leaves its hearing results behind. An audiogram is read whole
    /// and only by object id (already found visible), so no index beyond the keys is needed.
    static func registerAudiograms(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v26: audiograms") { db in
            try db.execute(sql: """
                CREATE TABLE audiograms (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    point_count INTEGER NOT NULL
                );
                CREATE TABLE audiogram_tests (
                    object_id INTEGER NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,          -- order within the sample, points then tests
                    point INTEGER NOT NULL,             -- the point's index
                    frequency_hz REAL NOT NULL,
                    sensitivity_dbhl REAL NOT NULL,
                    conduction_type INTEGER NOT NULL,   -- HKAudiogramConductionType raw value
                    masked INTEGER NOT NULL,
                    side INTEGER NOT NULL,              -- HKAudiogramSensitivityTestSide raw value
                    clamping_lower_dbhl REAL,
                    clamping_upper_dbhl REAL,
                    PRIMARY KEY (object_id, position)
                ) WITHOUT ROWID;
                """)
        }
    }
}
