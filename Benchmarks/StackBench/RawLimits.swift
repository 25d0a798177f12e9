import BenchSupport
import Foundation
import GRDB
import GRDBSQLite
import Glibc
import HealthStore

/// The machine's limits, measured in the same run as the full stack: SQLite through its C API
/// (prepared statements bound and stepped directly, WAL, synchronous=FULL, on the same disk)
/// and a Unix-socket ping-pong.
enum RawLimits {
    /// Rows per second inserted into a table with two B-trees (the rowid table and a UNIQUE
    /// index on a time-ordered 16-byte key), `rowsPerTransaction` per commit.
    static func plainTable(directory: String, rowsPerTransaction: Int, transactions: Int) throws -> Double {
        let database = try RawDatabase(path: directory + "/raw-plain-\(rowsPerTransaction).sqlite")
        defer { database.close() }
        try database.execute("""
            CREATE TABLE samples (id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, type_id INTEGER NOT NULL,
                                  source_id INTEGER NOT NULL, start_us INTEGER NOT NULL, end_us INTEGER NOT NULL, quantity REAL)
            """)
        let insert = try database.prepare("INSERT INTO samples (uuid, type_id, source_id, start_us, end_us, quantity) VALUES (?, 7, 3, ?, ?, ?)")
        defer { sqlite3_finalize(insert) }
        return try timedInserts(database, rowsPerTransaction: rowsPerTransaction, transactions: transactions) { row in
            bindKey(insert, 1, row)
            sqlite3_bind_int64(insert, 2, Int64(row) * 60_000_000)
            sqlite3_bind_int64(insert, 3, Int64(row) * 60_000_000 + 60_000_000)
            sqlite3_bind_double(insert, 4, Double(row % 120))
            try database.step(insert)
        }
    }

    /// The same into the project's `objects` table (every index the migrations create) of a
    /// freshly migrated plain file, with the change counter bumped once per commit as a save does.
    static func projectSchema(directory: String, rowsPerTransaction: Int, transactions: Int) throws -> Double {
        let path = directory + "/raw-schema-\(rowsPerTransaction).sqlite"
        let migrated = try DatabaseQueue(path: path)
        _ = try HealthDatabase(writer: migrated)
        try migrated.close()
        let database = try RawDatabase(path: path)
        defer { database.close() }
        let insert = try database.prepare("""
            INSERT INTO objects (uuid, type_id, source_id, source_version, device_id, start_us, end_us, quantity, change_seq)
            VALUES (?, 7, 3, '1', NULL, ?, ?, ?, ?)
            """)
        defer { sqlite3_finalize(insert) }
        let bump = try database.prepare("UPDATE counters SET value = value + 1 WHERE name = 'change'")
        defer { sqlite3_finalize(bump) }
        return try timedInserts(database, rowsPerTransaction: rowsPerTransaction, transactions: transactions) { row in
            if row % rowsPerTransaction == 0 { try database.step(bump) }
            bindKey(insert, 1, row)
            sqlite3_bind_int64(insert, 2, Int64(row) * 60_000_000)
            sqlite3_bind_int64(insert, 3, Int64(row) * 60_000_000 + 60_000_000)
            sqlite3_bind_double(insert, 4, Double(row % 120))
            sqlite3_bind_int64(insert, 5, Int64(row / rowsPerTransaction + 1))
            try database.step(insert)
        }
    }

    private static func timedInserts(_ database: RawDatabase, rowsPerTransaction: Int, transactions: Int,
                                     _ insertRow: (Int) throws -> Void) throws -> Double {
        let begin = try database.prepare("BEGIN IMMEDIATE"), commit = try database.prepare("COMMIT")
        defer { sqlite3_finalize(begin); sqlite3_finalize(commit) }
        let started = ContinuousClock.now
        var row = 0
        for _ in 0..<transactions {
            try database.step(begin)
            for _ in 0..<rowsPerTransaction {
                try insertRow(row)
                row += 1
            }
            try database.step(commit)
        }
        return Double(row) / seconds(ContinuousClock.now - started)
    }

    /// A UUIDv7-like key: the row number big-endian in front, so keys grow at the right edge.
    static func bindKey(_ statement: OpaquePointer, _ index: Int32, _ row: Int) {
        var key = [UInt8](repeating: 0x5A, count: 16)
        withUnsafeBytes(of: UInt64(row).bigEndian) { for (offset, byte) in $0.enumerated() { key[offset] = byte } }
        sqlite3_bind_blob(statement, index, key, 16, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    // MARK: Unix-socket ping-pong

    /// `stack-bench pingpong N` (run under `taskset -c 0`): two threads of this process echo a
    /// 64-byte message over a socket pair N times; prints each round trip in µs.
    static func pingPong(roundTrips: Int) throws -> [Double] {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { throw BenchFailed("socketpair: \(errno)") }
        let (near, far) = (pair[0], pair[1])
        let total = roundTrips + 1_000
        let echo = Thread {
            var buffer = [UInt8](repeating: 0, count: 64)
            for _ in 0..<total {
                guard readFully(far, &buffer), write(far, buffer, 64) == 64 else { return }
            }
        }
        echo.start()
        var message = [UInt8](repeating: 7, count: 64)
        var times: [Double] = []
        times.reserveCapacity(roundTrips)
        for trip in 0..<total {
            let started = ContinuousClock.now
            guard write(near, message, 64) == 64, readFully(near, &message) else { throw BenchFailed("ping-pong: socket failed") }
            if trip >= 1_000 { times.append(seconds(ContinuousClock.now - started) * 1_000_000) }
        }
        close(near)
        close(far)
        return times
    }

    private static func readFully(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Bool {
        var have = 0
        while have < buffer.count {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + have, $0.count - have) }
            if got <= 0 { return false }
            have += got
        }
        return true
    }
}

/// One SQLite connection through the C API, WAL and synchronous=FULL, as the store opens its own.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String) throws {
        var opened: OpaquePointer?
        guard sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let opened else {
            throw BenchFailed("cannot open \(path)")
        }
        handle = opened
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL")
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure(sql) }
        return statement
    }

    func step(_ statement: OpaquePointer) throws {
        let result = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard result == SQLITE_DONE || result == SQLITE_ROW else { throw failure("step") }
    }

    func close() { sqlite3_close_v2(handle) }

    private func failure(_ what: String) -> BenchFailed {
        BenchFailed("\(what): \(String(cString: sqlite3_errmsg(handle)))")
    }
}
