import Foundation
import GRDB
import Testing

@testable import HealthStore

/// The locked-start snapshot at the store level: every change to the tables it carries —
/// WITHOUT ROWID tables and a removal's cascade included — advances the generation and rewrites
/// the snapshot before the writer returns; other writes leave it alone; a locked start restores
/// what was written and refuses a stale or altered snapshot; the next journal keeps its numbering
/// across locked starts.
@Suite(.timeLimit(.minutes(10))) struct LockedStartSnapshotTests {
    let directory = TemporaryDirectory()
    let database: HealthDatabase

    init() throws {
        database = try HealthDatabase(writer: DatabaseQueue())
        _ = try LockedStartKeys.next(database.writer)
        database.keepLockedStartSnapshot(directory: directory.path, writeNow: true) { error in
            Issue.record("the snapshot could not be written: \(error)")
        }
    }

    private func written() throws -> (generation: UInt64, snapshot: LockedStartSnapshot) {
        let key = try MachineKey.load(StoreLayout(directory: directory.path, create: false))
        let (generation, plaintext) = try #require(try LockedStartFiles.readSnapshot(directory.path, machineKey: key))
        return (generation, try LockedStartSnapshot.decode(plaintext, path: "test"))
    }

    private func current() throws -> LockedStartSnapshot {
        try database.writer.read { try LockedStartSnapshot.read($0) }
    }

    /// One statement per carried table and kind of change.
    static let changes = [
        ("apps: insert", "INSERT INTO apps (id, display_name, executable, version, entitlements, installed_us) VALUES ('org.a', 'A', '/bin/a', '1', '[]', 1)"),
        ("grants: insert", "INSERT INTO grants (app_id, type_identifier, access, decision, decided_us) VALUES ('org.a', 'HKQuantityTypeIdentifierStepCount', 2, 2, 1)"),
        ("grants: revoke", "UPDATE grants SET decision = 1"),
        ("grants: expiry", "UPDATE grants SET expires_us = 5"),
        ("direct connections: insert", "INSERT INTO direct_connection_apps (app_id, executable, allowed_us) VALUES ('org.a', '/bin/a', 1)"),
        ("network: insert", "INSERT INTO network_apps (app_id, allowed_us) VALUES ('org.a', 1)"),
        ("sandbox ids: insert", "INSERT INTO app_sandbox_ids (app_id, uid, assigned_us) VALUES ('org.a', 1879048193, 1)"),
        ("apps: delete, cascading to grants and opt-ins", "DELETE FROM apps WHERE id = 'org.a'"),
        ("sandbox ids: delete", "DELETE FROM app_sandbox_ids"),
    ]

    @Test func everyChangeToACarriedTableAdvancesTheGenerationAndRewritesTheSnapshot() throws {
        var generation = try written().generation
        #expect(try written().snapshot == current(), "written when kept")
        for (name, sql) in Self.changes {
            try database.writer.write { try $0.execute(sql: sql) }
            let after = try written()
            #expect(after.generation == generation + 1, "\(name)")
            #expect(try LockedStartFiles.generation(directory.path) == after.generation, "\(name)")
            #expect(after.snapshot == (try current()), "\(name)")
            generation = after.generation
        }
    }

    @Test func writesThatChangeNoCarriedTableLeaveTheSnapshotAlone() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: LockedStartFiles.snapshotPath(directory.path)))
        try database.writer.write { try $0.execute(sql: "UPDATE counters SET value = value + 1 WHERE name = 'change'") }
        let after = try Data(contentsOf: URL(fileURLWithPath: LockedStartFiles.snapshotPath(directory.path)))
        #expect(before == after)
    }

    @Test func aLockedStartRestoresTheAppsAndGrantsAndRefusesAStaleOrAlteredSnapshot() throws {
        for (_, sql) in Self.changes.prefix(7) { try database.writer.write { try $0.execute(sql: sql) } }
        let expected = try current()
        do {
            let start = try LockedStart.open(directory: directory.path)
            #expect(try start.grants.writer.read { try LockedStartSnapshot.read($0) } == expected)
            start.releaseStore()
        }

        let generation = try LockedStartFiles.generation(directory.path)
        try LockedStartFiles.recordGeneration(generation + 1, directory.path)
        #expect(throws: LockedStartError.snapshotStale(path: LockedStartFiles.snapshotPath(directory.path),
                                                         generation: generation, storeGeneration: generation + 1)) {
            _ = try LockedStart.open(directory: directory.path)
        }
        try LockedStartFiles.recordGeneration(generation, directory.path)

        let path = LockedStartFiles.snapshotPath(directory.path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[9] ^= 0x01  // the generation, which the seal covers
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: LockedStartError.snapshotNotAuthentic(path: path)) {
            _ = try LockedStart.open(directory: directory.path)
        }
    }

    @Test func theNextJournalContinuesAcrossLockedStartsAndMergesOnceRetired() throws {
        let first = try PendingJournalMerge.begin(database, directory: directory.path)
        try first.append(Array("one".utf8))
        try first.append(Array("two".utf8))
        first.close()
        let start = try LockedStart.open(directory: directory.path)
        #expect(start.journal.generation == first.generation)
        try start.journal.append(Array("three".utf8))
        start.journal.close()
        start.releaseStore()

        let merged = try PendingJournalMerge.merge(database, directory: directory.path) { plaintext in
            .accessLog(actor: "org.test", appID: "org.test", action: .write, types: [], count: 1,
                       detail: String(decoding: plaintext, as: UTF8.self), at: Date(timeIntervalSince1970: 1_700_000_000))
        }
        #expect(merged.merged == 3)
        #expect(try database.accessLog.entries().map(\.detail) == ["one", "two", "three"])
        let next = try database.writer.read { try LockedStartKeys.current($0) }
        #expect(next != nil && next?.generation != first.generation, "a fresh next journal replaced the used one")
        #expect(try written().snapshot == current(), "and the snapshot names it")
    }
}
