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
}
