import Foundation
import GRDB
import Testing

@testable import HealthStore

@Suite(.timeLimit(.minutes(10))) struct KeyRotationTests {
    static func makeStore(rows: Int) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try store.writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)")
            for i in 0..<rows { try db.execute(sql: "INSERT INTO t (label) VALUES (?)", arguments: ["row \(i)"]) }
        }
        try store.close()
        return directory
    }

    static func rowCount(_ directory: TemporaryDirectory, passcode: Passcode? = nil) throws -> Int? {
        let store = try EncryptedDatabase.open(directory: directory.path, passcode: passcode)
        try store.checkIntegrity()
        return try store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") }
    }

    @Test func rotationReencryptsUnderANewKeyAndKeepsEveryRow() throws {
        let directory = try Self.makeStore(rows: 500)
        let oldKeys = StoreFiles.read(directory.file("store.keys"))
        let oldDatabase = StoreFiles.read(directory.file("health.sqlite"))
        try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)

        #expect(StoreFiles.read(directory.file("store.keys")) != oldKeys)
        #expect(!FileManager.default.fileExists(atPath: directory.file("health.sqlite.rotating")))
        let newDatabase = StoreFiles.read(directory.file("health.sqlite"))
        #expect(zip(oldDatabase, newDatabase).filter { $0 == $1 }.count < newDatabase.count / 50)
        #expect(try Self.rowCount(directory) == 500)

        // The old wrapped key no longer opens the store.
        StoreFiles.write(directory.file("store.keys"), oldKeys)
        #expect(throws: StoreOpenError.wrongKey(path: directory.path)) { _ = try Self.rowCount(directory) }
    }

    @Test func rotationIsRefusedWhileTheStoreIsOpen() throws {
        let directory = try Self.makeStore(rows: 1)
        let store = try EncryptedDatabase.open(directory: directory.path)
        #expect(throws: StoreOpenError.storeInUse(path: directory.path)) {
            try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)
        }
        withExtendedLifetime(store) {}
    }

    @Test func anInterruptedRotationBeforeTheRenameIsRolledBack() throws {
        let directory = try Self.makeStore(rows: 50)
        let before = try KeyEnvelope.load(StoreLayout(directory: directory.path, create: false))
        try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)
        // Rebuild the state a kill right before the rename leaves: old database,
        // a stray copy, and store.keys holding the current key and a pending one.
        let layout = try StoreLayout(directory: directory.path, create: false)
        let rotated = try #require(try KeyEnvelope.load(layout))
        let stale = try #require(before)
        try KeyEnvelope(current: rotated.current, pending: stale.current).save(layout)
        StoreFiles.write(directory.file("health.sqlite.rotating"), [UInt8](repeating: 7, count: 8192))

        #expect(try Self.rowCount(directory) == 50)
        #expect(!FileManager.default.fileExists(atPath: directory.file("health.sqlite.rotating")))
        #expect(try KeyEnvelope.load(layout)?.pending == nil)
    }

    @Test func anInterruptedRotationAfterTheRenameIsCompleted() throws {
        let directory = try Self.makeStore(rows: 50)
        let layout = try StoreLayout(directory: directory.path, create: false)
        let before = try #require(try KeyEnvelope.load(layout))
        try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)
        // A kill right after the rename: the new database, store.keys not yet updated.
        let rotated = try #require(try KeyEnvelope.load(layout))
        try KeyEnvelope(current: before.current, pending: rotated.current).save(layout)

        #expect(try Self.rowCount(directory) == 50)
        #expect(try KeyEnvelope.load(layout) == rotated)
    }
}
