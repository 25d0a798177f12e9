import Foundation
import GRDB
import Testing

@testable import HealthStore

/// What the broker relies on to change keys without exiting: close() frees the store for a key
/// change at once, and a passcode can be checked while the store is open.
@Suite(.timeLimit(.minutes(10))) struct StoreKeyChangeInProcessTests {
    @Test func closeReleasesTheLockSoKeysCanChangeAndTheStoreReopen() throws {
        let directory = try KeyRotationTests.makeStore(rows: 30)
        let store = try EncryptedDatabase.open(directory: directory.path)
        #expect(throws: StoreOpenError.storeInUse(path: directory.path)) {
            try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)
        }
        try store.close()
        // `store` is still referenced here: the lock went with close(), not with deinit.
        try withExtendedLifetime(store) {
            try StoreKeyRotation.rotate(directory: directory.path, passcode: nil)
            #expect(try KeyRotationTests.rowCount(directory) == 30)
        }
    }

    @Test func verifyChecksThePasscodeWithoutTheStoreLock() throws {
        let directory = try KeyRotationTests.makeStore(rows: 1)
        try StorePasscode.verify(directory: directory.path, passcode: nil)
        try StorePasscode.set(directory: directory.path, passcode: Passcode("open sesame"))
        let store = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("open sesame"))
        defer { try? store.close() }
        try StorePasscode.verify(directory: directory.path, passcode: Passcode("open sesame"))
        #expect(throws: StoreOpenError.passcodeRequired(path: directory.path)) {
            try StorePasscode.verify(directory: directory.path, passcode: nil)
        }
        #expect(throws: StoreOpenError.wrongPasscode(path: directory.path)) {
            try StorePasscode.verify(directory: directory.path, passcode: Passcode("open barley"))
        }
    }

    @Test func aPasscodeNeverPrintsItsBytes() {
        var bytes = Array("hunter2".utf8)
        let passcode = Passcode(consuming: &bytes)
        #expect(bytes == [UInt8](repeating: 0, count: 7))
        #expect(!"\(passcode)".contains("hunter2"))
        #expect(!String(reflecting: passcode).contains("hunter2"))
    }
}
