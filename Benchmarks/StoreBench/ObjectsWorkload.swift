import Foundation
import GRDB
import HealthStore

/// The measured workload, run identically against a plain SQLite file and the
/// encrypted store: an objects-like table keyed by time-ordered UUIDs with an index
/// on (type, start), filled in batched transactions, then read back by range scans.
struct ObjectsWorkload {
    let rows: Int
    let batchSize: Int
    let scans: Int
    let typeCount = 20

    struct Figures {
        var insertsPerSecond: Double
        var scannedRowsPerSecond: Double
    }

    func createSchema(_ writer: any DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE objects (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    type INTEGER NOT NULL,
                    start REAL NOT NULL,
                    end REAL NOT NULL,
                    value REAL NOT NULL,
                    source INTEGER NOT NULL);
                CREATE INDEX objects_type_start ON objects (type, start);
                """)
        }
    }

    func run(on writer: any DatabaseWriter) throws -> Figures {
        try createSchema(writer)
        let insertSeconds = try measure {
            var generator = SystemRandomNumberGenerator()
            for batch in stride(from: 0, to: rows, by: batchSize) {
                try writer.write { db in
                    let statement = try db.makeStatement(
                        sql: "INSERT INTO objects (uuid, type, start, end, value, source) VALUES (?, ?, ?, ?, ?, ?)")
                    for i in batch..<min(batch + batchSize, rows) {
                        let start = Double(i) * 60
                        let uuid = withUnsafeBytes(of: UUIDv7.make(startingAt: Date(timeIntervalSince1970: start)).uuid) { Data($0) }
                        try statement.execute(arguments: [
                            uuid, i % typeCount, start, start + 30,
                            Double.random(in: 0..<200, using: &generator), i % 5,
                        ])
                    }
                }
            }
        }
        _ = try writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }

        var scanned = 0
        let scanSeconds = try measure {
            for scan in 0..<scans {
                let type = scan % typeCount
                let first = Double(scan * 7919 % rows) * 60
                scanned += try writer.read { db in
                    let cursor = try Row.fetchCursor(
                        db, sql: "SELECT uuid, start, end, value FROM objects WHERE type = ? AND start BETWEEN ? AND ?",
                        arguments: [type, first, first + Double(rows / 10) * 60])
                    var count = 0
                    while try cursor.next() != nil { count += 1 }
                    return count
                }
            }
        }
        return Figures(insertsPerSecond: Double(rows) / insertSeconds, scannedRowsPerSecond: Double(scanned) / scanSeconds)
    }

    private func measure(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
