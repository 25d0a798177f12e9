import Foundation
import GRDB
import Testing

@testable import HealthStore

/// A transaction larger than the page cache writes pages to the WAL before it commits; when it
/// changes such a page again, SQLite overwrites that frame in place and, at commit, recomputes
/// the checksums of the frames from there on (`walRewriteChecksums`), starting by reading the
/// previous frame's two checksum words alone: an 8-byte read in the middle of a frame header.
/// The cipher once refused that read, so any large enough save into a large store failed with
/// "disk I/O error" (found by query-bench loading a year of samples).
@Suite(.timeLimit(.minutes(10))) struct WALChecksumRewriteTests {
    /// Fills `rows` pages' worth of rows, then rewrites every one, all in one transaction that
    /// a 10-page cache cannot hold.
    static func rewriteInOneTransaction(_ store: EncryptedDatabase, rows: Int) throws {
        try store.writer.write { db in
            try db.execute(sql: "PRAGMA cache_size = 10")
            try db.execute(sql: "CREATE TABLE pages (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
            for id in 0..<rows {
                try db.execute(sql: "INSERT INTO pages (id, body) VALUES (?, zeroblob(3000))", arguments: [id])
            }
            try db.execute(sql: "UPDATE pages SET body = randomblob(3000)")
            try db.execute(sql: "UPDATE pages SET body = zeroblob(3000) WHERE id % 2 = 0")
        }
    }

    @Test func aTransactionThatOverwritesItsOwnWALFramesCommits() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try Self.rewriteInOneTransaction(store, rows: 200)
        let zeroed = try store.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM pages WHERE body = zeroblob(3000)")
        }
        #expect(zeroed == 100)
    }

    /// The rewritten checksums must be right, not just readable: SQLite checks every frame's
    /// checksum when it rebuilds its WAL index, and ends the log at the first wrong one. A copy
    /// of the files taken before any checkpoint (as after a crash) must hold the whole commit.
    @Test func theRewrittenChecksumsSurviveWALRecovery() throws {
        let directory = TemporaryDirectory()
        let copy = TemporaryDirectory()
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            try store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
            try Self.rewriteInOneTransaction(store, rows: 200)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name != "store.lock" {
                try FileManager.default.copyItem(atPath: directory.file(name), toPath: copy.file(name))
            }
            try FileManager.default.removeItem(atPath: copy.file("health.sqlite-shm"))
            try store.close()
        }
        let recovered = try EncryptedDatabase.open(directory: copy.path)
        let (rows, zeroed) = try recovered.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM pages"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM pages WHERE body = zeroblob(3000)"))
        }
        #expect(rows == 200)
        #expect(zeroed == 100)
    }
}
