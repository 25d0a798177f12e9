import Foundation
import GRDB
import Testing

@testable import HealthStore

/// Each passcode check runs scrypt with the real parameters (128 MiB, a fraction of
/// a second), so these tests keep the number of derivations small.
@Suite(.timeLimit(.minutes(10))) struct StorePasscodeTests {
    @Test func aPasscodeLocksTheStoreUntilRemoved() throws {
        let directory = try KeyRotationTests.makeStore(rows: 10)
        try StorePasscode.set(directory: directory.path, passcode: Passcode("correct horse"))
        #expect(try StorePasscode.isSet(directory: directory.path))
        #expect(throws: StoreOpenError.passcodeRequired(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path)
        }
        #expect(throws: StoreOpenError.wrongPasscode(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("wrong"))
        }
        #expect(try KeyRotationTests.rowCount(directory, passcode: Passcode("correct horse")) == 10)

        try StorePasscode.change(directory: directory.path, from: Passcode("correct horse"), to: Passcode("battery staple"))
        #expect(throws: StoreOpenError.wrongPasscode(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("correct horse"))
        }
        try StorePasscode.remove(directory: directory.path, passcode: Passcode("battery staple"))
        #expect(try !StorePasscode.isSet(directory: directory.path))
        #expect(try KeyRotationTests.rowCount(directory) == 10)
    }

    @Test func withAPasscodeTheMachineKeyAloneOpensNothing() throws {
        let directory = try KeyRotationTests.makeStore(rows: 1)
        try StorePasscode.set(directory: directory.path, passcode: Passcode("pin"))
        let envelope = String(decoding: StoreFiles.read(directory.file("store.keys")), as: UTF8.self)
        #expect(!envelope.contains("machine"))
        #expect(envelope.contains("\"n\" : 131072"))
    }

    @Test func operationsThatDoNotMatchTheProtectionAreRefused() throws {
        let directory = try KeyRotationTests.makeStore(rows: 1)
        #expect(throws: StoreOpenError.passcodeNotSet(path: directory.path)) {
            try StorePasscode.remove(directory: directory.path, passcode: Passcode("x"))
        }
        #expect(throws: StoreOpenError.passcodeEmpty) { try StorePasscode.set(directory: directory.path, passcode: Passcode("")) }
        try StorePasscode.set(directory: directory.path, passcode: Passcode("x"))
        #expect(throws: StoreOpenError.passcodeAlreadySet(path: directory.path)) {
            try StorePasscode.set(directory: directory.path, passcode: Passcode("y"))
        }
    }

    @Test func rotationKeepsAStoreBehindItsPasscode() throws {
        let directory = try KeyRotationTests.makeStore(rows: 20)
        try StorePasscode.set(directory: directory.path, passcode: Passcode("pin"))
        #expect(throws: StoreOpenError.passcodeRequired(path: directory.path)) {
            try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)
        }
        try StoreKeyRotation.rotate(directory: directory.path, passcode: Passcode("pin"))
        #expect(try StorePasscode.isSet(directory: directory.path))
        #expect(try KeyRotationTests.rowCount(directory, passcode: Passcode("pin")) == 20)
    }

    // MARK: - A passcode change is a key change (storage review s18 #1)

    /// Saves a row the old key files must not reveal, as the user would after the change.
    private static func saveAfterTheChange(_ directory: TemporaryDirectory, passcode: Passcode?) throws {
        let store = try EncryptedDatabase.open(directory: directory.path, passcode: passcode)
        try store.writer.write { try $0.execute(sql: "INSERT INTO t (label) VALUES ('saved after the change')") }
        try store.close()
    }

    /// Before: `set` re-wrapped the same data key, so a store.keys copied earlier (a backup, a
    /// snapshot, the freed blocks of the replaced file) and machine.key opened the store —
    /// including rows saved after the passcode was set. Now the old key decrypts nothing.
    @Test func aKeyFileFromBeforeThePasscodeWasSetNoLongerOpensTheStore() throws {
        let directory = try KeyRotationTests.makeStore(rows: 3)
        let before = StoreFiles.read(directory.file("store.keys"))
        try StorePasscode.set(directory: directory.path, passcode: Passcode("pin"))
        try Self.saveAfterTheChange(directory, passcode: Passcode("pin"))
        StoreFiles.write(directory.file("store.keys"), before)
        #expect(throws: StoreOpenError.wrongKey(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path)
        }
    }

    /// The same for a change (the old envelope and the old passcode) and a removal (the
    /// passcode envelope and its passcode): each leaves the earlier key files useless.
    @Test func aKeyFileFromBeforeAChangeOrRemovalNoLongerOpensTheStoreWithItsPasscode() throws {
        let directory = try KeyRotationTests.makeStore(rows: 3)
        try StorePasscode.set(directory: directory.path, passcode: Passcode("old pin"))
        let beforeChange = StoreFiles.read(directory.file("store.keys"))
        try StorePasscode.change(directory: directory.path, from: Passcode("old pin"), to: Passcode("new pin"))
        try Self.saveAfterTheChange(directory, passcode: Passcode("new pin"))
        let afterChange = StoreFiles.read(directory.file("store.keys"))
        StoreFiles.write(directory.file("store.keys"), beforeChange)
        #expect(throws: StoreOpenError.wrongKey(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("old pin"))
        }

        StoreFiles.write(directory.file("store.keys"), afterChange)
        try StorePasscode.remove(directory: directory.path, passcode: Passcode("new pin"))
        #expect(try KeyRotationTests.rowCount(directory) == 4)
        StoreFiles.write(directory.file("store.keys"), afterChange)
        #expect(throws: StoreOpenError.wrongKey(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("new pin"))
        }
    }
}
