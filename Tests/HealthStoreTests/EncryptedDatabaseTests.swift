import Foundation
import GRDB
import Testing

@testable import HealthStore

@Suite(.timeLimit(.minutes(10))) struct EncryptedDatabaseTests {
    @Test func createsAStoreAndReadsItBackAfterReopening() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            try store.writer.write { db in
                try db.execute(sql: "CREATE TABLE sample (id INTEGER PRIMARY KEY, value REAL)")
                for i in 0..<100 { try db.execute(sql: "INSERT INTO sample (value) VALUES (?)", arguments: [Double(i)]) }
            }
            #expect(store.databasePath == directory.file("health.sqlite"))
        }
        let reopened = try EncryptedDatabase.open(directory: directory.path)
        let sum = try reopened.writer.read { try Double.fetchOne($0, sql: "SELECT sum(value) FROM sample") }
        #expect(sum == 4950)
    }

    @Test func writerUsesWALWithFullSynchronousCommits() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let (journalMode, synchronous, pageSize) = try store.writer.writeWithoutTransaction { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA page_size")
            )
        }
        #expect(journalMode == "wal")
        #expect(synchronous == 2)
        #expect(pageSize == 4096)
    }

    @Test func keyFilesAndDirectoryAreOwnerOnly() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.removeItem(atPath: directory.path)
        _ = try EncryptedDatabase.open(directory: directory.path)
        for (path, mode) in [(directory.path, 0o700), (directory.file("machine.key"), 0o600), (directory.file("store.keys"), 0o600)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
    }

    @Test func aSecondOpenOfAnOpenStoreIsRefused() throws {
        let directory = TemporaryDirectory()
        let first = try EncryptedDatabase.open(directory: directory.path)
        #expect(throws: StoreOpenError.storeInUse(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path)
        }
        withExtendedLifetime(first) {}
    }

    @Test func checkIntegrityPassesOnAHealthyStore() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try store.writer.write { try $0.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        try store.checkIntegrity()
    }
}
