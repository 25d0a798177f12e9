import BenchSupport
import Foundation
import GRDB
import GRDBSQLite
import HealthStore

/// `stack-bench --scale 1000000,2000000,5000000,10000000`: whether the full stack stays flat as
/// the store grows (issue 17: "everything still flat from 1M to 10M samples, RSS < 200 MB").
///
/// One healthd and, beside it, a plain SQLite file of the project's schema (`RawScaleTable`)
/// grow together to each checkpoint: an app process saves the next samples with `save([1000])`
/// and the same rows go into the plain file in 1,000-row transactions (the limit). At each
/// checkpoint the same two reads run on both: a 10,000-sample `HKSampleQuery` and an
/// `HKStatisticsQuery` sum over 10,000 samples (both at fixed places in the first checkpoint's
/// data, so a growing store is the only difference), against the raw SELECT and `total()`;
/// then healthd's resident set (now and peak) and the store's bytes per sample.
struct ScaleRun {
    /// Samples are `spacing` seconds apart from 2000-01-01 (10M reach 2009), one second long.
    static let base = 946_684_800.0
    static let spacing = 30.0
    static let saveSize = 1_000

    /// Where the reads look, given the first checkpoint: query and sum windows inside its data.
    struct Windows {
        let query: Range<Int>
        let statistics: Range<Int>

        init(first checkpoint: Int) {
            let width = min(10_000, checkpoint / 10)
            query = checkpoint * 4 / 10 ..< checkpoint * 4 / 10 + width
            statistics = checkpoint * 6 / 10 ..< checkpoint * 6 / 10 + width
        }

        var arguments: [String] { ["\(query.lowerBound)", "\(query.upperBound)", "\(statistics.lowerBound)", "\(statistics.upperBound)"] }
    }

    static func startMicroseconds(_ index: Int) -> Int64 { Int64((base + Double(index) * spacing) * 1_000_000) }

    let checkpoints: [Int]
    let rounds: Int
    let executable: String

    func run(_ healthd: StackHealthd, environment: [String: String]) throws {
        guard let first = checkpoints.first, first >= 10_000, checkpoints == checkpoints.sorted() else {
            throw BenchFailed("--scale takes increasing sample counts from 10000 up")
        }
        let windows = Windows(first: first)
        let raw = try RawScaleTable(directory: healthd.directory)
        defer { raw.close() }
        var lines: [String] = []
        var stored = 0
        print("scale: \(checkpoints.map(String.init).joined(separator: " → ")) samples; reads of \(windows.query.count) samples, \(rounds) rounds")
        for checkpoint in checkpoints {
            let saved = try Spawn.start(executable, ["app", "scale-save", "\(stored)", "\(checkpoint)"], environment: environment).results()
            let rawRate = try raw.insert(from: stored, to: checkpoint)
            stored = checkpoint
            let reads = try Spawn.start(executable, ["app", "scale-read", "\(rounds)"] + windows.arguments, environment: environment).results()
            let rawQuery = try raw.medianMilliseconds(rounds) { try raw.query(windows.query) }
            let rawSum = try raw.medianMilliseconds(rounds) { try raw.sum(windows.statistics) }
            let storeBytes = Self.bytes(under: healthd.directory + "/store")
            let line = String(format: "| %@ | %@ / %@ = %.2f× | %.1f / %.1f ms = %.2f× | %.2f / %.2f ms = %.2f× | %.1f (%.1f) MiB | %.0f B |",
                              ResultTable.format(Double(checkpoint)), ResultTable.format(saved.first ?? .nan), ResultTable.format(rawRate),
                              (saved.first ?? .nan) / rawRate, reads.first ?? .nan, rawQuery, (reads.first ?? .nan) / rawQuery,
                              reads.last ?? .nan, rawSum, (reads.last ?? .nan) / rawSum,
                              healthd.residentMiB, healthd.healthd.memoryMiB("VmHWM"), Double(storeBytes) / Double(checkpoint))
            print(line)
            lines.append(line)
        }
        print("\n| samples stored | save([1000]) samples/s: full stack / raw SQLite into the schema = ratio | HKSampleQuery 10,000 / raw SELECT | statistics sum 10,000 / raw total() | healthd RSS (peak) | store bytes per sample |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        lines.forEach { print($0) }
    }

    /// The sizes of the regular files under `directory` (the store, its WAL and journal).
    static func bytes(under directory: String) -> Int {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}

/// The limit beside the full stack: the project's `objects` table in a plain SQLite file
/// (freshly migrated, WAL, synchronous=FULL), filled with the same rows through the C API.
final class RawScaleTable {
    private let database: RawDatabase
    private let insertRow: OpaquePointer
    private let bump: OpaquePointer
    private let select: OpaquePointer
    private let total: OpaquePointer

    init(directory: String) throws {
        let path = directory + "/raw-scale.sqlite"
        let migrated = try DatabaseQueue(path: path)
        _ = try HealthDatabase(writer: migrated)
        try migrated.close()
        database = try RawDatabase(path: path)
        insertRow = try database.prepare("""
            INSERT INTO objects (uuid, type_id, source_id, source_version, device_id, start_us, end_us, quantity, change_seq)
            VALUES (?, 7, 3, '1', NULL, ?, ?, ?, ?)
            """)
        bump = try database.prepare("UPDATE counters SET value = value + 1 WHERE name = 'change'")
        select = try database.prepare("""
            SELECT uuid, start_us, end_us, quantity, source_id FROM objects
            WHERE type_id = 7 AND start_us >= ? AND start_us < ? ORDER BY start_us
            """)
        total = try database.prepare("SELECT total(quantity) FROM objects WHERE type_id = 7 AND start_us >= ? AND start_us < ?")
    }

    /// Rows `from..<to` in 1,000-row transactions; rows per second.
    func insert(from: Int, to: Int) throws -> Double {
        let started = ContinuousClock.now
        var row = from
        while row < to {
            try database.execute("BEGIN IMMEDIATE")
            try database.step(bump)
            let end = min(to, row + ScaleRun.saveSize)
            while row < end {
                RawLimits.bindKey(insertRow, 1, row)
                sqlite3_bind_int64(insertRow, 2, ScaleRun.startMicroseconds(row))
                sqlite3_bind_int64(insertRow, 3, ScaleRun.startMicroseconds(row) + 1_000_000)
                sqlite3_bind_double(insertRow, 4, 1 + Double(row % 50))
                sqlite3_bind_int64(insertRow, 5, Int64(row / ScaleRun.saveSize + 1))
                try database.step(insertRow)
                row += 1
            }
            try database.execute("COMMIT")
        }
        return Double(to - from) / seconds(ContinuousClock.now - started)
    }

    /// The rows of `window` by start, every column read, as the store's query reads them.
    func query(_ window: Range<Int>) throws {
        sqlite3_bind_int64(select, 1, ScaleRun.startMicroseconds(window.lowerBound))
        sqlite3_bind_int64(select, 2, ScaleRun.startMicroseconds(window.upperBound))
        defer { sqlite3_reset(select) }
        var rows = 0, checksum = 0.0
        while sqlite3_step(select) == SQLITE_ROW {
            _ = sqlite3_column_blob(select, 0)
            checksum += Double(sqlite3_column_int64(select, 1) &+ sqlite3_column_int64(select, 2) &+ sqlite3_column_int64(select, 4))
            checksum += sqlite3_column_double(select, 3)
            rows += 1
        }
        guard rows == window.count, checksum.isFinite else { throw BenchFailed("raw query: \(rows) rows, expected \(window.count)") }
    }

    func sum(_ window: Range<Int>) throws {
        sqlite3_bind_int64(total, 1, ScaleRun.startMicroseconds(window.lowerBound))
        sqlite3_bind_int64(total, 2, ScaleRun.startMicroseconds(window.upperBound))
        defer { sqlite3_reset(total) }
        guard sqlite3_step(total) == SQLITE_ROW, sqlite3_column_double(total, 0) > 0 else { throw BenchFailed("raw sum: no rows") }
    }

    /// A warm-up, then the median of `rounds` timed runs, in ms.
    func medianMilliseconds(_ rounds: Int, _ work: () throws -> Void) throws -> Double {
        try work()
        let times = try (0..<rounds).map { _ in
            let started = ContinuousClock.now
            try work()
            return seconds(ContinuousClock.now - started) * 1_000
        }
        return percentile(times, 0.5)
    }

    func close() {
        [insertRow, bump, select, total].forEach { sqlite3_finalize($0) }
        database.close()
    }
}
