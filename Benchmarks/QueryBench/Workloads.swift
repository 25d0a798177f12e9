import Foundation
import GRDB
import HealthModel
import HealthStore
import HealthWire

/// Each workload twice: through OpenHealthKit's query path on the encrypted store, and as the
/// equivalent raw SQL on plain SQLite holding the same rows. Each returns a checksum so the
/// compiler cannot drop the work and the two sides can be compared.
struct Workloads {
    let data: BenchData

    // MARK: Daily merged step sums over the whole range

    /// What the broker does for HKStatisticsCollectionQuery(stepCount, .cumulativeSum, daily,
    /// Europe/Berlin): read the visible rows by source in priority order, merge, prorate into
    /// calendar days, encode the batches.
    func dailySumsThroughOpenHealthKit(_ database: HealthDatabase) throws -> Double {
        let sources = try database.statistics.samples(typeIdentifier: BenchData.steps, predicate: nil, scope: .allSources)
        let results = try StatisticsCalculator(aggregationStyle: .cumulative, options: .cumulativeSum)
            .collection(of: sources, window: nil, anchor: BenchData.start, interval: StatisticsInterval(days: 1),
                        timeZone: BenchData.zone)
        var bytes = 0
        for start in stride(from: 0, to: results.count, by: StatisticsLimits.statisticsPerBatch) {
            bytes += StatisticsBatch(Array(results[start..<min(start + StatisticsLimits.statisticsPerBatch, results.count)])).wireBytes().count
        }
        precondition(bytes > 0)
        return results.reduce(0) { $0 + ($1.merged.sum ?? 0) }
    }

    static let dailySumsSQL = """
        SELECT (start_us - ?) / 86400000000 AS day, sum(quantity) FROM objects
        WHERE type_id = (SELECT id FROM sample_types WHERE identifier = ?)
        GROUP BY day ORDER BY day
        """

    /// A per-day sum as one would write it in SQL: fixed 24-hour UTC-offset days, every
    /// source's samples added as they are (no merging, no proration across midnight).
    func dailySumsRawSQL(_ db: Database) throws -> Double {
        var total = 0.0
        let rows = try Row.fetchCursor(db, sql: Self.dailySumsSQL, arguments: [BenchData.start.microsecondsSince1970, BenchData.steps])
        while let row = try rows.next() { total += row[1] as Double }
        return total
    }

    static let stepRowsSQL = """
        SELECT source_id, start_us, end_us, quantity FROM objects
        WHERE type_id = (SELECT id FROM sample_types WHERE identifier = ?)
        ORDER BY source_id, start_us, id
        """

    /// Only reading the rows the statistics path reads, in its order: the floor for any
    /// computation over them, merged or not.
    func stepRowsRawSQL(_ db: Database) throws -> Double {
        var total = 0.0
        let rows = try Row.fetchCursor(db, sql: Self.stepRowsSQL, arguments: [BenchData.steps])
        while let row = try rows.next() {
            let start: Int64 = row[1], end: Int64 = row[2]
            if start <= end { total += row[3] as Double }
        }
        return total
    }

    // MARK: 10,000 heart-rate samples

    /// 10,000 minutes of heart rate from the middle of the range.
    var tenThousandRange: (start: Date, end: Date) {
        let start = BenchData.start.addingTimeInterval(Double(data.minutes / 2) * 60)
        return (start, start.addingTimeInterval(10_000 * 60))
    }

    /// What the broker does for an HKSampleQuery of them, sorted by start: run the query and
    /// encode each 500-sample batch.
    func sampleQueryThroughOpenHealthKit(_ database: HealthDatabase) throws -> Double {
        let range = tenThousandRange
        var count = 0, bytes = 0
        try database.samples.query(sampleQuerySpec(range), scope: .allSources, batchSize: WireLimits.samplesPerBatch) { batch in
            bytes += SampleList(batch).wireBytes().count
            count += batch.count
        }
        precondition(count == 10_000 && bytes > 0, "expected 10,000 samples, got \(count)")
        return Double(count)
    }

    /// The store half of the above, without the wire encoding.
    func sampleQueryStoreOnly(_ database: HealthDatabase) throws -> Double {
        let range = tenThousandRange
        var count = 0
        try database.samples.query(sampleQuerySpec(range), scope: .allSources, batchSize: WireLimits.samplesPerBatch) { count += $0.count }
        return Double(count)
    }

    private func sampleQuerySpec(_ range: (start: Date, end: Date)) -> SampleQuerySpec {
        SampleQuerySpec(typeIdentifier: BenchData.heartRate,
                        predicate: .dateRange(start: range.start, end: range.end, strictStart: true, strictEnd: false),
                        sort: [SampleSort(.startDate, ascending: true)])
    }

    static let sampleQuerySQL = """
        SELECT o.uuid, o.start_us, o.end_us, o.quantity, o.metadata, s.bundle_identifier FROM objects o
        JOIN sources s ON s.id = o.source_id
        WHERE o.type_id = (SELECT id FROM sample_types WHERE identifier = ?) AND o.start_us >= ? AND o.start_us < ?
        ORDER BY o.start_us
        """

    /// The same rows read with one SELECT, each column fetched once.
    func sampleQueryRawSQL(_ db: Database) throws -> Double {
        let range = tenThousandRange
        var count = 0
        let rows = try Row.fetchCursor(db, sql: Self.sampleQuerySQL,
                                       arguments: [BenchData.heartRate, range.start.microsecondsSince1970, range.end.microsecondsSince1970])
        while let row = try rows.next() {
            let uuid: Data = row[0]
            let start: Int64 = row[1], end: Int64 = row[2]
            let value: Double = row[3]
            let metadata: String? = row[4]
            let source: String = row[5]
            if !uuid.isEmpty, start <= end, value.isFinite, metadata == nil, !source.isEmpty { count += 1 }
        }
        precondition(count == 10_000, "expected 10,000 rows, got \(count)")
        return Double(count)
    }
}
