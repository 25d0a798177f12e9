import Foundation
import GRDB
import HealthStore
import Testing
import TestSupport

/// Every column of an access-log entry is covered by the chain hash (DESIGN.md §7.9, issue
/// 19.1): a test that edits one column of one entry, healthd stopped, and restarts it — for
/// each column in turn — must see `healthctl log verify` report the damage. Leaving any field
/// out of `AccessLogChainHash` makes exactly one of these cases pass verification.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AccessLogColumnTamperEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"

    /// One edit per column of `access_log`, each to a value still valid for the column, so the
    /// only thing that can notice is the chain. Entry 2 is an app's grant change (all columns
    /// set), entry 3 the manager's browsing (no app).
    static let edits: [(column: String, sql: String)] = [
        ("sequence", "UPDATE access_log SET sequence = 1000 WHERE sequence = 2"),
        ("time_us", "UPDATE access_log SET time_us = time_us + 1 WHERE sequence = 2"),
        ("actor", "UPDATE access_log SET actor = actor || 'x' WHERE sequence = 2"),
        ("app_id", "UPDATE access_log SET app_id = app_id || 'x' WHERE sequence = 2"),
        ("app_id absent", "UPDATE access_log SET app_id = NULL WHERE sequence = 2"),
        // The manager's browsing (entry 3) concerns no app: absent and empty must differ.
        ("app_id empty", "UPDATE access_log SET app_id = '' WHERE app_id IS NULL"),
        ("action", "UPDATE access_log SET action = CASE action WHEN 'read' THEN 'write' ELSE 'read' END WHERE sequence = 2"),
        ("types", "UPDATE access_log SET types = '[]' WHERE sequence = 2"),
        ("types reformatted", "UPDATE access_log SET types = ' ' || types WHERE sequence = 2"),
        ("count", "UPDATE access_log SET count = count + 1 WHERE sequence = 2"),
        ("detail", "UPDATE access_log SET detail = detail || '.' WHERE sequence = 2"),
        ("prev_hash", "UPDATE access_log SET prev_hash = randomblob(32) WHERE sequence = 2"),
        ("hash", "UPDATE access_log SET hash = randomblob(32) WHERE sequence = 2"),
    ]

    @Test func editingAnyColumnOfAnEntryFailsVerification() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let app = "org.test.tamper"
        let manifest = healthd.root + "/app.json"
        try JSONSerialization.data(withJSONObject: [
            "id": app, "displayName": "Tamper", "executable": BrokerProcess.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
        ]).write(to: URL(fileURLWithPath: manifest))
        #expect(try await healthd.healthctl(["apps", "install", manifest]).status == 0)
        for access in ["read", "share"] { #expect(try await healthd.healthctl(["grant", app, access, steps]).status == 0) }
        #expect(try await healthd.healthctl(["samples", "stepCount", "--json"]).status == 0)
        let intact = try await healthd.healthctl(["log", "verify"])
        #expect(intact.status == 0 && intact.stdout.hasPrefix("intact: "), "\(intact)")
        healthd.stop()

        let pristine = healthd.root + "/pristine"
        try FileManager.default.copyItem(atPath: healthd.storeDirectory, toPath: pristine)
        for edit in Self.edits {
            try FileManager.default.removeItem(atPath: healthd.storeDirectory)
            try FileManager.default.copyItem(atPath: pristine, toPath: healthd.storeDirectory)
            let changed = try Self.tamper(healthd.storeDirectory, edit.sql)
            #expect(changed == 1, "\(edit.column): the edit matched \(changed) rows")
            try healthd.start()
            let verified = try await healthd.healthctl(["log", "verify"])
            healthd.stop()
            #expect(verified.status == 65, "an edited \(edit.column) passed verification: \(verified)")
            #expect(!verified.stdout.contains("intact"), "\(edit.column): \(verified)")
        }
    }

    /// Runs `sql` on the stopped store (it opens with its own key files, no passcode set).
    static func tamper(_ directory: String, _ sql: String) throws -> Int {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        return try store.writer.write { database in
            try database.execute(sql: sql)
            return database.changesCount
        }
    }
}
