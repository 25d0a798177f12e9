import Foundation
import GRDB
import HealthModel
import Testing
import TestSupport

@testable import HealthStore

/// A save the store acknowledged survives a power cut right after it. The kill tests
/// (CrashRecoveryTests) cannot show this: after SIGKILL the kernel still holds every write, so
/// a store that never fsyncs passes them. Here a child works on the store under an LD_PRELOAD
/// shim that records each file's bytes at each fsync and the directory's names at each
/// directory fsync (Tests/PowerLossShim); after every acknowledged command the test rebuilds
/// the directory a power cut would leave, opens it with its own key files through the cipher
/// VFS, and requires every acknowledged row (and, after a key rotation, the new key).
@Suite(.timeLimit(.minutes(10)), .serialized) struct PowerLossTests {
    /// Mostly small commits; every fourth a ~350 kB row, so the WAL passes SQLite's automatic
    /// checkpoint (1,000 pages) before the first rotation and restarts from its beginning; two
    /// key rotations (rollback journal, rename over the database, directory fsync) near the end.
    static let commands: [String] = (0..<64).map { step in
        if step == 52 || step == 58 { return "rotate" }
        return step % 4 == 3 ? "bulk" : "save"
    }

    @Test func everyAcknowledgedSaveSurvivesAPowerCutRightAfterIt() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        let work = TemporaryDirectory(), store = TemporaryDirectory(), shadowFolder = TemporaryDirectory()
        let shim = try PowerLossShadow.buildShim(into: work.path)
        let shadow = PowerLossShadow(folder: shadowFolder.path)
        // The shim compares against the path the kernel reports, so no symbolic links.
        let watched = try #require(realpath(store.path, nil).map { path in defer { free(path) }; return String(cString: path) })
        let child = try StepChild(directory: watched, environment: shadow.environment(shim: shim, watched: watched))
        // Creating the store fsyncs its key files and the directory: a shim that saw nothing is
        // not loaded (LD_PRELOAD ignored), and every later failure would be the shim's.
        try #require(FileManager.default.fileExists(atPath: shadowFolder.file("names")),
                     "the power-loss shim recorded no directory fsync; is LD_PRELOAD honoured?")

        var acknowledged = Set<Int64>()
        var largestDatabaseBeforeRotation = 0
        for (step, command) in Self.commands.enumerated() {
            // The child is idle between commands, so the live key file can be read.
            let keyBefore = command == "rotate" ? try KeyEnvelope.load(StoreLayout(directory: watched, create: false))?.current : nil
            acknowledged.formUnion(try child.send(command).compactMap(Int64.init))

            let cut = TemporaryDirectory()
            let sizes = try shadow.restore(into: cut.path)
            if !Self.commands[...step].contains("rotate") {
                largestDatabaseBeforeRotation = max(largestDatabaseBeforeRotation, sizes["health.sqlite"] ?? 0)
            }
            if let keyBefore {
                // An acknowledged rotation is durable too: the user may have rotated because the
                // old key leaked, so a power cut must not bring it back.
                let envelope = try KeyEnvelope.load(StoreLayout(directory: cut.path, create: false))
                #expect(envelope?.pending == nil && envelope?.current != keyBefore,
                        "after step \(step) ('rotate'), a power cut brings back the key the rotation replaced")
            }
            let survivors: Set<Int64>
            do {
                survivors = try Self.rows(inStoreAt: cut.path)
            } catch {
                Issue.record("after step \(step) ('\(command)'), the store a power cut leaves does not open: \(error)")
                return
            }
            let lost = acknowledged.subtracting(survivors)
            #expect(lost.isEmpty, "after step \(step) ('\(command)'), a power cut loses \(lost.count) acknowledged rows, e.g. \(lost.sorted().prefix(5))")
            if !lost.isEmpty { return }
        }
        // What the run must have covered to prove anything.
        #expect(acknowledged.count > Self.commands.count)
        #expect(largestDatabaseBeforeRotation > 1_000_000,
                "no checkpoint moved the WAL into the database while the store ran: the WAL restart is untested")
    }

    /// The same power cut after saves made through the group-commit queue (`SampleRepository.insert`
    /// with their access-log entries, 1–8 at once: a lone save commits alone on the queue's drain
    /// thread, overlapping ones share a commit). Every acknowledged sample survives, and so does its
    /// entry: the log in the store a cut leaves verifies, with one entry per stored save.
    @Test func everyAcknowledgedGroupCommittedSaveSurvivesAPowerCutRightAfterIt() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        let work = TemporaryDirectory(), store = TemporaryDirectory(), shadowFolder = TemporaryDirectory()
        let shim = try PowerLossShadow.buildShim(into: work.path)
        let shadow = PowerLossShadow(folder: shadowFolder.path)
        let watched = try #require(realpath(store.path, nil).map { path in defer { free(path) }; return String(cString: path) })
        let child = try StepChild(directory: watched, environment: shadow.environment(shim: shim, watched: watched))
        try #require(FileManager.default.fileExists(atPath: shadowFolder.file("names")),
                     "the power-loss shim recorded no directory fsync; is LD_PRELOAD honoured?")

        var acknowledged = Set<UUID>()
        for step in 0..<40 {
            acknowledged.formUnion(try child.send("group").compactMap(UUID.init(uuidString:)))
            let cut = TemporaryDirectory()
            _ = try shadow.restore(into: cut.path)
            let (stored, entries) = try Self.groupSaved(inStoreAt: cut.path)
            let lost = acknowledged.subtracting(stored)
            #expect(lost.isEmpty, "after step \(step), a power cut loses \(lost.count) acknowledged group-committed saves")
            #expect(entries == stored.count, "after step \(step), \(entries.map(String.init) ?? "a damaged log") for \(stored.count) saves")
            if !lost.isEmpty || entries != stored.count { return }
        }
        #expect(acknowledged.count > 40)
    }

    /// The step-count samples of the store in `directory` and the number of entries of its access
    /// log, nil when the log does not verify.
    static func groupSaved(inStoreAt directory: String) throws -> (samples: Set<UUID>, logEntries: Int?) {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        try store.checkIntegrity()
        let database = try HealthDatabase(writer: store.writer)
        var found = Set<UUID>()
        try database.samples.query(SampleQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount"), scope: .allSources) {
            found.formUnion($0.map(\.uuid))
        }
        guard case let .intact(entries) = try database.accessLog.verify() else { return (found, nil) }
        return (found, entries)
    }

    /// Opens the store in `directory` (its own key files, the real cipher VFS), checks every
    /// page, and returns the ids in `acknowledged` (none if the table never became durable).
    static func rows(inStoreAt directory: String) throws -> Set<Int64> {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        try store.checkIntegrity()
        return try store.writer.read { db in
            try db.tableExists("acknowledged") ? Set(try Int64.fetchAll(db, sql: "SELECT id FROM acknowledged")) : []
        }
    }
}
