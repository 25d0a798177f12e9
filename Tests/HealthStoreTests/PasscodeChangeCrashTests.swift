import Foundation
import GRDB
import Testing
import TestSupport

@testable import HealthStore

/// A passcode set, change or removal re-encrypts the store under a new key (StoreKeyRotation),
/// so a kill at any step must leave the store openable — with the old protection's secret
/// before the rename that commits it, with the new one's after — holding every row.
///
/// Each step runs scrypt (128 MiB, a fraction of a second) a few times and a real child is
/// killed at each of the rotation's three steps for each of set, change and remove: 9 kills took
/// 150 s beside the other store suites at load 20 (about 17 s a kill), the price of covering
/// every step of the commit with a real process rather than a rebuilt state.
@Suite(.timeLimit(.minutes(10)), .serialized) struct PasscodeChangeCrashTests {
    static let passcodes: [String?] = [nil, "first passcode", "second passcode"]

    /// Opens with whichever of the child's passcodes opens the store; nil when none does.
    static func open(_ directory: TemporaryDirectory) -> (store: EncryptedDatabase, passcode: String?)? {
        for passcode in passcodes {
            if let store = try? EncryptedDatabase.open(directory: directory.path, passcode: passcode.map { Passcode($0) }) {
                return (store, passcode)
            }
        }
        return nil
    }

    static func labels(_ store: EncryptedDatabase) throws -> [String] {
        try store.writer.read { try String.fetchAll($0, sql: "SELECT label FROM t ORDER BY id") }
    }

    static func inode(_ path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    @Test func aKillAtEachStepOfAPasscodeChangeLeavesTheOldOrTheNewStoreWithEveryRow() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        let directory = try KeyRotationTests.makeStore(rows: 200)
        let expected = try {
            let store = try EncryptedDatabase.open(directory: directory.path)
            defer { try? store.close() }
            return try Self.labels(store)
        }()
        let path = directory.path
        let database = directory.file("health.sqlite")
        // Where each kill lands: the new key's wrap saved but nothing written under it; the
        // re-encrypted copy being written; the rename done but store.keys not yet settled.
        enum Step: CaseIterable { case wrapSaved, copyWritten, renamed }
        var killedAt: [Step: Int] = [:]
        var openedWith: Set<String?> = []
        for iteration in 0 ..< 9 {
            let step = Step.allCases[iteration % 3]
            let outcome = try await offThePool {
                // The database's inode when the current change's wrap appeared: the rename
                // gives health.sqlite a new one. Taken from the last look with no change pending
                // (the first: before the child starts), not from the first look that sees one:
                // on a loaded machine that look came after the rename, no kill could land
                // "renamed", and the child went on to the next change.
                var inodeWhenWrapped: UInt64?
                var inodeUnwrapped = Self.inode(database)
                return try CrashChild.run("passcode", directory: path) {
                    let pending = (try? KeyEnvelope.load(StoreLayout(directory: path, create: false))?.pending) != nil
                    let inode = Self.inode(database)
                    guard pending else {
                        inodeWhenWrapped = nil
                        inodeUnwrapped = inode
                        return false
                    }
                    if inodeWhenWrapped == nil { inodeWhenWrapped = inodeUnwrapped ?? inode }
                    let copying = FileManager.default.fileExists(atPath: path + "/health.sqlite.rotating")
                    return switch step {
                    case .wrapSaved: !copying && inode == inodeWhenWrapped
                    case .copyWritten: copying
                    case .renamed: inode != inodeWhenWrapped
                    }
                }
            }
            try #require(outcome.wasKilled, "the child stopped by itself: \(outcome.errorOutput)")
            let layout = try StoreLayout(directory: path, create: false)
            if try KeyEnvelope.load(layout)?.pending != nil { killedAt[step, default: 0] += 1 }

            let opened = try #require(Self.open(directory), "after a kill at \(step) no passcode opens the store")
            openedWith.insert(opened.passcode)
            try opened.store.checkIntegrity()
            #expect(try Self.labels(opened.store) == expected, "rows changed by a kill at \(step)")
            try opened.store.close()
            #expect(try KeyEnvelope.load(layout)?.pending == nil, "the open did not settle the interrupted change")
        }
        #expect(killedAt.count == Step.allCases.count, "kills landed at \(killedAt) only")
        // Kills after a rename commit the step, so the 9 walk set, change and remove: the store
        // was found with no passcode, the first and the second.
        #expect(openedWith.count == 3, "the kills left only these protections: \(openedWith)")
    }

    /// The two sides of the commit point, built by hand: before the rename only the old
    /// passcode opens (and the change is dropped), after it only the new one (and it is kept).
    @Test func anInterruptedChangeOpensWithTheOldPasscodeBeforeItsRenameAndTheNewOneAfter() throws {
        let directory = try KeyRotationTests.makeStore(rows: 5)
        let layout = try StoreLayout(directory: directory.path, create: false)
        try StorePasscode.set(directory: directory.path, passcode: Passcode("old"))
        let oldEnvelope = try #require(try KeyEnvelope.load(layout))
        let oldDatabase = StoreFiles.read(directory.file("health.sqlite"))
        try StorePasscode.change(directory: directory.path, from: Passcode("old"), to: Passcode("new"))
        let newEnvelope = try #require(try KeyEnvelope.load(layout))
        let newDatabase = StoreFiles.read(directory.file("health.sqlite"))
        let interrupted = KeyEnvelope(current: oldEnvelope.current, pending: newEnvelope.current)

        // After the rename: the database is under the new key.
        try interrupted.save(layout)
        #expect(throws: StoreOpenError.wrongPasscode(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("old"))
        }
        #expect(try KeyRotationTests.rowCount(directory, passcode: Passcode("new")) == 5)
        #expect(try KeyEnvelope.load(layout) == newEnvelope)

        // Before the rename: the database is still under the old key.
        StoreFiles.write(directory.file("health.sqlite"), oldDatabase)
        try interrupted.save(layout)
        #expect(throws: StoreOpenError.wrongPasscode(path: directory.path)) {
            _ = try EncryptedDatabase.open(directory: directory.path, passcode: Passcode("new"))
        }
        #expect(try KeyRotationTests.rowCount(directory, passcode: Passcode("old")) == 5)
        #expect(try KeyEnvelope.load(layout) == oldEnvelope)
        #expect(newDatabase != oldDatabase)
    }
}
