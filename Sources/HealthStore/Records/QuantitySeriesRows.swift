import Foundation
import GRDB
import HealthModel

/// A quantity series' side row (`quantity_series`, v23): the summary a fetched sample carries
/// and the packed quantities `HKQuantitySeriesSampleQuery` streams and statistics split. The
/// sample's `objects` row holds the sum or average and `series_count`.
enum QuantitySeriesRows {
    /// Stores the quantities of a validated, canonical series sample (row id `objectID`).
    static func insert(_ db: Database, objectID: Int64, _ series: QuantitySeries) throws {
        let data = series.data ?? []
        try db.execute(sql: """
            INSERT INTO quantity_series (object_id, minimum, maximum, most_recent, most_recent_start_us,
                most_recent_end_us, starts, ends, amounts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [objectID, series.minimum, series.maximum, series.mostRecent,
                             series.mostRecentStart.microsecondsSince1970, series.mostRecentEnd.microsecondsSince1970,
                             pack(data.map(\.start.microsecondsSince1970)), pack(data.map(\.end.microsecondsSince1970)),
                             SeriesRows.pack(data.map(\.value))])
    }

    /// A fetched sample's series summary (row id `objectID`, `count` from `objects.series_count`).
    static func summary(objectID: Int64, count: Int, _ db: Database) throws -> QuantitySeries {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT minimum, maximum, most_recent, most_recent_start_us, most_recent_end_us
            FROM quantity_series WHERE object_id = ?
            """), arguments: [objectID]) else {
            throw StoreIntegrityError.missingSeriesRow
        }
        return QuantitySeries(count: count, minimum: row[0], maximum: row[1], mostRecent: row[2],
                              mostRecentStart: Date(microsecondsSince1970: row[3]), mostRecentEnd: Date(microsecondsSince1970: row[4]))
    }

    /// The quantities of the series sample with row id `objectID`, all of them, in start order.
    static func data(objectID: Int64, _ db: Database) throws -> [QuantitySeriesDatum] {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT starts, ends, amounts FROM quantity_series WHERE object_id = ?"),
                                         arguments: [objectID]) else {
            throw StoreIntegrityError.missingSeriesRow
        }
        return try data(starts: row[0], ends: row[1], amounts: row[2])
    }

    /// The quantities from the three packed columns, which must agree in length.
    static func data(starts: Data, ends: Data, amounts: Data) throws -> [QuantitySeriesDatum] {
        let starts = try unpack(starts)
        let ends = try unpack(ends)
        let amounts = try SeriesRows.unpack(amounts)
        guard starts.count == amounts.count, ends.count == amounts.count,
              zip(starts, ends).allSatisfy({ $0 <= $1 }) else { throw StoreIntegrityError.missingSeriesRow }
        return amounts.indices.map { index in
            QuantitySeriesDatum(value: amounts[index], start: Date(microsecondsSince1970: starts[index]),
                                end: Date(microsecondsSince1970: ends[index]))
        }
    }

    /// Int64 values as little-endian bytes, 8 each.
    static func pack(_ values: [Int64]) -> Data {
        var data = Data(capacity: values.count * 8)
        for value in values {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func unpack(_ data: Data) throws -> [Int64] {
        guard data.count % 8 == 0 else { throw StoreIntegrityError.missingSeriesRow }
        var values: [Int64] = []
        values.reserveCapacity(data.count / 8)
        data.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 8) {
                values.append(Int64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
            }
        }
        return values
    }
}
