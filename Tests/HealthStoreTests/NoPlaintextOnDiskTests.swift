import Foundation
import GRDB
import Testing

@testable import HealthStore

/// Heavy use of a store with distinctive markers, then a search of every file SQLite
/// wrote (the store directory, and SQLite's deleted-but-open temporary files) for
/// any of them.
@Suite(.timeLimit(.minutes(10))) struct NoPlaintextOnDiskTests {
    static let typeMarker = "HKQuantityTypeIdentifierStepCount"
    static let sourceMarker = "com.example.MarkerSourceApp"
    static let metadataMarker = "HKMetadataKeyMarkerWeatherCondition"
    /// 1234.5678 as SQLite stores a REAL (big-endian IEEE 754), repeated in every row.
    static let doubleMarker = Array((1234.5678).bitPattern.bigEndian.bytes)

    static var textMarkers: [[UInt8]] {
        [typeMarker, sourceMarker, metadataMarker, "marker_objects", "marker_type_start"].map { Array($0.utf8) }
    }

    static func fill(_ store: EncryptedDatabase, rows: Int) throws {
        try store.writer.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS marker_objects (
                    id BLOB PRIMARY KEY, type TEXT, source TEXT, metadata TEXT, start REAL, value REAL);
                CREATE INDEX IF NOT EXISTS marker_type_start ON marker_objects (type, start);
                """)
            for i in 0..<rows {
                let uuid = UUIDv7.make(startingAt: Date())
                let id = withUnsafeBytes(of: uuid.uuid) { Data($0) }
                try db.execute(
                    sql: "INSERT INTO marker_objects VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, typeMarker, sourceMarker, "{\"\(metadataMarker)\": \(i)}", Double(i), 1234.5678])
            }
        }
    }

    static func expectNoMarkers(in paths: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for path in paths {
            let bytes = StoreFiles.read(path)
            for marker in textMarkers + [doubleMarker] {
                #expect(!StoreFiles.contains(bytes, marker), "marker found in \(path)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Open SQLite temporary files (they are unlinked right after creation, so only
    /// /proc/self/fd still reaches them).
    static func openTemporaryFiles() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.map { "/proc/self/fd/" + $0 }.filter { link in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? ""
            return target.contains("etilqs_")
        }
    }

    /// The search itself must be able to fail: on a plain SQLite file it finds every marker.
    @Test func theSearchFindsEveryMarkerInAnUnencryptedDatabase() throws {
        let directory = TemporaryDirectory()
        let plain = try DatabaseQueue(path: directory.file("plain.sqlite"))
        try plain.write { db in
            try db.execute(sql: "CREATE TABLE marker_objects (type TEXT, source TEXT, metadata TEXT, value REAL)")
            try db.execute(sql: "CREATE INDEX marker_type_start ON marker_objects (type)")
            try db.execute(
                sql: "INSERT INTO marker_objects VALUES (?, ?, ?, ?)",
                arguments: [Self.typeMarker, Self.sourceMarker, Self.metadataMarker, 1234.5678])
        }
        try plain.close()
        let bytes = StoreFiles.read(directory.file("plain.sqlite"))
        for marker in Self.textMarkers {
            #expect(StoreFiles.contains(bytes, marker))
        }
        #expect(StoreFiles.contains(bytes, Array((1234.5678).bitPattern.bigEndian.bytes)))
    }

    @Test func noMarkerInAnyStoreFileAfterHeavyUseCheckpointsAndVacuum() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try Self.fill(store, rows: 3000)
        // While the WAL still holds the transaction.
        Self.expectNoMarkers(in: StoreFiles.all(in: directory.path))
        _ = try store.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try Self.fill(store, rows: 3000)
        try store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM marker_objects WHERE start % 3 = 0")
            try db.execute(sql: "VACUUM")
        }
        Self.expectNoMarkers(in: StoreFiles.all(in: directory.path))
        try store.close()
        Self.expectNoMarkers(in: StoreFiles.all(in: directory.path))
        #expect(!StoreFiles.contains(StoreFiles.read(directory.file("health.sqlite")), Array("SQLite format 3".utf8)))
    }

    @Test func sortsThatSpillToTemporaryFilesWriteNoMarker() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try Self.fill(store, rows: 20000)
        let temporaryFiles: [String] = try store.writer.read { db in
            // A tiny cache makes the sorter spill its runs to temporary files.
            try db.execute(sql: "PRAGMA cache_size = 8")
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT metadata, source, value FROM marker_objects ORDER BY metadata DESC")
            _ = try cursor.next()  // the sort has completed: its runs are on disk
            let files = Self.openTemporaryFiles()
            Self.expectNoMarkers(in: files)
            return files
        }
        #expect(!temporaryFiles.isEmpty, "the sort did not spill; the test would prove nothing")
        Self.expectNoMarkers(in: StoreFiles.all(in: directory.path))
    }
}

extension UInt64 {
    /// The value's bytes in memory order.
    var bytes: [UInt8] { withUnsafeBytes(of: self) { Array($0) } }
}
