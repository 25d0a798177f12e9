import GRDB

extension StoreSchema {
    /// Quantity series (`HKQuantitySeriesSampleBuilder`): a quantity sample whose `objects` row
    /// keeps the series' sum or average in `quantity` (so sorting, value predicates and every
    /// reader that wants one number per sample work unchanged) and its quantities here.
    ///
    /// `objects.series_count` is NULL for a single-quantity sample and the series' count
    /// otherwise: the row decoder learns from the row it already reads whether to look here, so
    /// the ordinary sample costs nothing more. Adding a NULL column rewrites no row. Statistics
    /// read only the covering (type, source, start, id, end, quantity) index (v19); the count is
    /// appended to it so they still never touch the table, and look a series' quantities up by
    /// its key. Same name and leading columns, so every plan that used it still can; its pinned
    /// planner statistics get one more figure.
    ///
    /// The quantities are packed little-endian like a heartbeat series' beats (`SeriesRows`),
    /// read whole by the series query and by statistics, which split a series by its quantities'
    /// intervals; ON DELETE CASCADE so deleting the sample can never leave them behind.
    static func registerQuantitySeries(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v23: quantity series") { db in
            try db.execute(sql: """
                ALTER TABLE objects ADD COLUMN series_count INTEGER;
                CREATE TABLE quantity_series (
                    object_id INTEGER PRIMARY KEY REFERENCES objects(id) ON DELETE CASCADE,
                    minimum REAL NOT NULL,            -- canonical unit, like objects.quantity
                    maximum REAL NOT NULL,
                    most_recent REAL NOT NULL,
                    most_recent_start_us INTEGER NOT NULL,
                    most_recent_end_us INTEGER NOT NULL,
                    starts BLOB NOT NULL,             -- int64 LE per quantity: start, µs since 1970
                    ends BLOB NOT NULL,               -- int64 LE per quantity: end, µs since 1970
                    amounts BLOB NOT NULL             -- float64 LE per quantity, canonical unit
                );
                DROP INDEX objects_by_type_source_start;
                CREATE INDEX objects_by_type_source_start
                    ON objects(type_id, source_id, start_us, id, end_us, quantity, series_count);
                DELETE FROM sqlite_stat1 WHERE tbl = 'objects' AND idx = 'objects_by_type_source_start';
                INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('objects', 'objects_by_type_source_start', '1000000 100000 100 1 1 1 1 1');
                ANALYZE sqlite_master;
                """)
        }
    }
}
