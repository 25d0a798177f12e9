import GRDB

extension StoreSchema {
    /// Heartbeat series and electrocardiograms: the points of a series sample, one row per
    /// object, hanging off `objects` with ON DELETE CASCADE like a route's locations (so deleting
    /// the sample can never leave its beats or voltages behind). The points are packed
    /// little-endian (`SeriesRows`): a 30 s ECG is ~15,000 voltages, read whole or not at all,
    /// and a row per point would cost 40 bytes of index and row overhead each.
    static func registerSeries(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17: heartbeat series and electrocardiograms") { db in
            try db.execute(sql: """
                CREATE TABLE heartbeat_series (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    beat_count INTEGER NOT NULL,
                    times BLOB NOT NULL,          -- float64 LE per beat: seconds since the sample's start
                    gaps BLOB NOT NULL            -- one byte per beat: 1 when preceded by a gap
                );
                CREATE TABLE electrocardiograms (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    classification INTEGER NOT NULL,
                    symptoms_status INTEGER NOT NULL,
                    average_heart_rate REAL,      -- count/min
                    sampling_frequency REAL,      -- Hz
                    voltage_count INTEGER NOT NULL,
                    voltages BLOB NOT NULL        -- float64 LE per measurement, volts
                );
                """)
        }
    }
}
