import Foundation
import GRDB
import Testing

@testable import HealthStore

@Suite(.timeLimit(.minutes(10))) struct WrongKeyTests {
    /// Two stores, each with one row.
    static func makeTwoStores() throws -> (TemporaryDirectory, TemporaryDirectory) {
        let first = TemporaryDirectory(), second = TemporaryDirectory()
        for directory in [first, second] {
            let store = try EncryptedDatabase.open(directory: directory.path)
            try store.writer.write { try $0.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
            try store.close()
        }
        return (first, second)
    }

    @Test func anotherStoresKeysDoNotDecryptTheDatabase() throws {
        let (first, second) = try Self.makeTwoStores()
        for name in ["store.keys", "machine.key"] { StoreFiles.copy(second.file(name), to: first.file(name)) }
        let error = #expect(throws: StoreOpenError.self) { _ = try EncryptedDatabase.open(directory: first.path) }
        #expect(error == .wrongKey(path: first.path))
        #expect(error?.description.contains("does not decrypt the store at \(first.path)") == true)
    }

    @Test func anotherMachineKeyDoesNotUnwrapTheDataKey() throws {
        let (first, second) = try Self.makeTwoStores()
        StoreFiles.copy(second.file("machine.key"), to: first.file("machine.key"))
        #expect(throws: StoreOpenError.machineKeyDoesNotUnwrap(path: first.file("machine.key"))) {
            _ = try EncryptedDatabase.open(directory: first.path)
        }
    }

    @Test func aMissingKeyFileIsReportedNotReplaced() throws {
        let (first, _) = try Self.makeTwoStores()
        try FileManager.default.removeItem(atPath: first.file("store.keys"))
        #expect(throws: StoreOpenError.keyFileMissing(path: first.file("store.keys"))) {
            _ = try EncryptedDatabase.open(directory: first.path)
        }
        // A fresh key would make the existing data unreadable for good.
        #expect(!FileManager.default.fileExists(atPath: first.file("store.keys")))
    }

    @Test func aMissingMachineKeyIsReported() throws {
        let (first, _) = try Self.makeTwoStores()
        try FileManager.default.removeItem(atPath: first.file("machine.key"))
        #expect(throws: StoreOpenError.machineKeyMissing(path: first.file("machine.key"))) {
            _ = try EncryptedDatabase.open(directory: first.path)
        }
    }

    /// Wide modes left from before (an older version, a restore, a process that changed them)
    /// are narrowed when the store opens, before any key is read (PrivateFileModes).
    @Test func aKeyFileReadableByOthersIsMadePrivateAtOpen() throws {
        let (first, _) = try Self.makeTwoStores()
        chmod(first.file("machine.key"), 0o644)
        chmod(first.path, 0o755)
        _ = try EncryptedDatabase.open(directory: first.path)
        var info = stat()
        #expect(stat(first.file("machine.key"), &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(stat(first.path, &info) == 0 && info.st_mode & 0o7777 == 0o700)
    }
}
