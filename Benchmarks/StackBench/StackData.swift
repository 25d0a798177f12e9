import BenchSupport
import Foundation
import GRDB
import HealthModel
import HealthStore

/// What the stores hold before healthd starts: `days` days of per-minute step counts and ten
/// days of per-minute heart rate, from one source, in fixed patterns (every run the same). The
/// encrypted store healthd serves and the plain SQLite file the raw queries read hold the same
/// rows, loaded the same way.
enum StackData {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let watch = SourceRecord(bundleIdentifier: "org.bench.watch", name: "Watch", version: "1")
    /// 2026-01-01 00:00 in Europe/Berlin, where the collection's days are cut.
    static let start = Date(timeIntervalSince1970: 1_767_222_000)
    static let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    static let heartRateMinutes = 14_400

    /// 10,000 minutes of heart rate from minute 2,000 on.
    static var tenThousandRange: (start: Date, end: Date) {
        let from = start.addingTimeInterval(2_000 * 60)
        return (from, from.addingTimeInterval(10_000 * 60))
    }

    static func load(days: Int, into database: HealthDatabase) async throws {
        try await insert(count: days * 1_440, into: database) { minute in
            quantity(steps, minute, Double((minute * 37) % 120), "count")
        }
        try await insert(count: heartRateMinutes, into: database) { minute in
            quantity(heartRate, minute, Double(55 + (minute * 13) % 70), "count/min")
        }
    }

    private static func insert(count: Int, into database: HealthDatabase, _ make: (Int) -> SampleRecord) async throws {
        var next = 0
        while next < count {
            let batch = (next..<min(next + 10_000, count)).map(make)
            _ = try await database.samples.insert(batch, source: watch)
            next += batch.count
        }
    }

    private static func quantity(_ type: String, _ minute: Int, _ value: Double, _ unit: String) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start.addingTimeInterval(Double(minute * 60)),
                     endDate: start.addingTimeInterval(Double(minute * 60 + 60)), value: .quantity(value, unit: unit))
    }

    // MARK: The raw SQL the full-stack queries are compared with (on the plain copy)

    static let sampleQuerySQL = """
        SELECT o.uuid, o.start_us, o.end_us, o.quantity, o.metadata, s.bundle_identifier FROM objects o
        JOIN sources s ON s.id = o.source_id
        WHERE o.type_id = (SELECT id FROM sample_types WHERE identifier = ?) AND o.start_us >= ? AND o.start_us < ?
        ORDER BY o.start_us
        """

    /// The same rows the HKSampleQuery returns, each column read once.
    static func sampleQueryRaw(_ db: Database) throws -> Int {
        let range = tenThousandRange
        var count = 0
        let rows = try Row.fetchCursor(db, sql: sampleQuerySQL,
                                       arguments: [heartRate, range.start.microsecondsSince1970, range.end.microsecondsSince1970])
        while let row = try rows.next() {
            let uuid: Data = row[0]
            let from: Int64 = row[1], to: Int64 = row[2]
            let value: Double = row[3]
            let source: String = row[5]
            if !uuid.isEmpty, from <= to, value.isFinite, !source.isEmpty { count += 1 }
        }
        guard count == 10_000 else { throw BenchFailed("raw sample query: expected 10,000 rows, got \(count)") }
        return count
    }

    static let dailySumsSQL = """
        SELECT (start_us - ?) / 86400000000 AS day, sum(quantity) FROM objects
        WHERE type_id = (SELECT id FROM sample_types WHERE identifier = ?)
        GROUP BY day ORDER BY day
        """

    /// A per-day sum as one would write it in SQL (24-hour days from the anchor, no merging).
    static func dailySumsRaw(_ db: Database) throws -> Int {
        var days = 0
        let rows = try Row.fetchCursor(db, sql: dailySumsSQL, arguments: [start.microsecondsSince1970, steps])
        while let row = try rows.next() { if (row[1] as Double) >= 0 { days += 1 } }
        return days
    }
}
