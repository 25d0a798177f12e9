import Foundation
import GRDB
import HealthModel
import HealthStore
import Testing
import TestSupport

/// Names one party chooses that passed for another's (redteam23 F1, F5), and outside text that
/// passed for healthd's own log lines (F3), each run as the red team ran it: real healthd, real
/// healthctl, real app processes.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PassingForAnotherEndToEndTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let bodyMass = "HKQuantityTypeIdentifierBodyMass"

    static func manifest(id: String, displayName: String, in folder: String) throws -> String {
        let path = folder + "/manifest-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: [
            "id": id, "displayName": displayName, "executable": BrokerProcess.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
        ]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `healthctl log`'s read lines without their sequence number and time: what tells who read.
    static func readLines(_ log: ProcessResult) -> [String] {
        log.lines.filter { $0.contains(" read ") }.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).joined(separator: " ") }
    }

    /// F1: an app id equal to an access-log actor name (`manager`, `healthd`, `unidentified`) is
    /// refused at install, by healthd for a grant and by health-sandbox for a launch, with the id
    /// rule's words. On main each installed, and the app's read of heart rate was logged as
    /// `manager read Heart Rate 1`, byte for byte the line of the user's own `healthctl samples`.
    @Test func anAppCannotTakeAnAccessLogActorName() async throws {
        let broker = try BrokerProcess()
        let victim = try await broker.installClient("org.test.victim")
        try await broker.set(victim, "share", Self.heartRate, allowed: true)
        #expect(try await broker.runApp(victim, ["save", Self.heartRate, "72", "count/min", "1700000000", "1700000000"]).okValue != nil)
        for actor in NonAppActor.allCases.map(\.rawValue) {
            let installed = try await broker.healthctl(["apps", "install", try Self.manifest(id: actor, displayName: "Test \(actor)", in: broker.root)])
            #expect(installed.status != 0, "an app was installed as the access log's actor '\(actor)': \(installed)")
            #expect((installed.stdout + installed.stderr).contains(AppIDRule.message), "\(actor): \(installed)")
            let grant = try await broker.healthctl(["grant", actor, "read", Self.heartRate])
            #expect(grant.status != 0 && grant.stderr.contains(AppIDRule.message), "\(actor): \(grant)")
            guard installed.status == 0 else { continue }
            // Before the fix: what the user saw. The app reads, the user browses; the two lines differ in nothing.
            let read = try await broker.runApp(actor, ["query", Self.heartRate])
            #expect(read.okValue == "1", "\(read)")
            #expect(try await broker.healthctl(["samples", Self.heartRate]).status == 0)
            let lines = Self.readLines(try await broker.healthctl(["log"]))
            Issue.record("the log's read lines of the app '\(actor)' and of the user: \(lines)")
            #expect(Set(lines).count == lines.count, "two read lines are identical: \(lines)")
        }
        let launched = try await broker.runApp(AccessLogEntry.managerActor, ["query", Self.heartRate])
        #expect(launched.status != 0 && launched.okValue == nil, "\(launched)")
        #expect(launched.stderr.contains(AppIDRule.message), "\(launched)")
        let apps = try await broker.healthctl(["apps", "list"])
        #expect(!apps.lines.contains { $0.hasPrefix("manager ") || $0.hasPrefix("healthd ") || $0.hasPrefix("unidentified ") }, "\(apps)")
    }

    /// F1, stored rows: an app an older version installed as `manager` (written into the stopped
    /// store, direct connections allowed) is not served under it — its connection is refused with
    /// the id rule, so nothing it does is logged as the user's — `apps list` says it needs
    /// removing, and `apps remove` takes it. The access log's rows are not rewritten. On main it
    /// was served: its read answered and was logged with the actor `manager`.
    @Test func anAppInstalledAsManagerByAnOlderVersionIsNotServed() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let old = "org.test.was-manager"
        try await healthd.installClient(old)
        #expect(try await healthd.healthctl(["apps", "allow-direct", old]).status == 0)
        healthd.stop()

        let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
        try await store.writer.write { db in
            try db.execute(sql: "CREATE TEMP TABLE renamed AS SELECT * FROM apps WHERE id = ?", arguments: [old])
            try db.execute(sql: "UPDATE renamed SET id = 'manager', display_name = 'Test manager'")
            try db.execute(sql: "DELETE FROM apps WHERE id = ?", arguments: [old])
            try db.execute(sql: "INSERT INTO apps SELECT * FROM renamed")
            try db.execute(sql: "INSERT INTO direct_connection_apps (app_id, executable, allowed_us) VALUES ('manager', ?, 0)",
                           arguments: [BrokerProcess.clientExecutable])
        }
        try store.close()
        try healthd.start()
        let logBefore = try await healthd.healthctl(["log", "--json"])

        // The app's executable, connecting directly as it was allowed to.
        let served = try await ProcessRun.run(BrokerProcess.clientExecutable, ["query", Self.heartRate],
                                              environment: ["OPENHEALTH_APP_SOCKET": healthd.appSocket])
        #expect(served.okValue == nil, "the app installed as 'manager' was served: \(served)")
        #expect(served.stdout.contains("it is 'manager'"), "\(served)")
        let logAfter = try await healthd.healthctl(["log", "--json"])
        #expect(!logAfter.lines.dropFirst(logBefore.lines.count).contains { $0.contains(#""action":"read""#) }, "\(logAfter.stdout)")

        let apps = try await healthd.healthctl(["apps", "list"])
        #expect(apps.stdout.contains("manager needs removing") && apps.stdout.contains(AppIDRule.message), "\(apps)")
        let removed = try await healthd.healthctl(["apps", "remove", "manager", "--keep-data"])
        #expect(removed.status == 0, "\(removed)")
        #expect(!(try await healthd.healthctl(["apps", "list"])).stdout.contains("manager"))
        #expect(try await healthd.healthctl(["log", "verify"]).status == 0)
        #expect(healthd.isRunning, "\(healthd.log)")
        healthd.stop()
    }

    /// F5: a display name that is the user's own source name ("Health", in any case or
    /// compatibility form, with invisible characters or extra spaces) or another installed app's
    /// is refused at install with why; the app's own reinstall keeps its name. On main "Health"
    /// installed ("Installed Health (com.ex.fake)").
    @Test func aDisplayNameThatIsTheUsersOrAnotherAppsIsRefused() async throws {
        let broker = try BrokerProcess()
        for name in ["Health", "health", "HEALTH ", "\u{FF28}\u{FF45}\u{FF41}\u{FF4C}\u{FF54}\u{FF48}", "Heal\u{200B}th", "\u{1D407}ealth"] {
            let result = try await broker.healthctl(["apps", "install", try Self.manifest(id: "org.test.fake", displayName: name, in: broker.root)])
            #expect(result.status != 0, "installed as \(name.unicodeScalars.map { String($0.value, radix: 16) }): \(result)")
            #expect(result.stderr.contains("the name your own entries show under"), "\(result)")
        }
        let first = try await broker.healthctl(["apps", "install", try Self.manifest(id: "org.test.sleep", displayName: "Sleep Tracker", in: broker.root)])
        #expect(first.status == 0, "\(first)")
        for name in ["Sleep Tracker", "sleep  TRACKER", "Sleep\u{00A0}Tracker"] {
            let result = try await broker.healthctl(["apps", "install", try Self.manifest(id: "org.test.copy", displayName: name, in: broker.root)])
            #expect(result.status != 0, "\(name): \(result)")
            #expect(result.stderr.contains("is the name of the installed app org.test.sleep ('Sleep Tracker')"), "\(result)")
        }
        let again = try await broker.healthctl(["apps", "install", try Self.manifest(id: "org.test.sleep", displayName: "Sleep Tracker", in: broker.root)])
        #expect(again.status == 0, "the app's own reinstall: \(again)")
        let apps = try await broker.healthctl(["apps", "list"])
        #expect(!apps.stdout.contains("org.test.fake") && !apps.stdout.contains("org.test.copy"), "\(apps)")
    }

    /// F5, the tables: an app whose stored display name is "Health" (an older version let it in;
    /// written into the stopped store) saves a weight, the user adds one; `healthctl samples`
    /// shows the two with different SOURCE cells — the app's with its id, the user's as theirs —
    /// and the app is not served under that name again (`apps list`: needs reinstalling). On main
    /// both rows read `Health`.
    @Test func theSamplesTableTellsTheUsersEntriesFromAnAppNamedHealth() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        let app = "org.test.fake"
        try await healthd.installClient(app)
        try await healthd.set(app, "share", Self.bodyMass, allowed: true)
        #expect(try await healthd.runApp(app, ["save", Self.bodyMass, "70", "kg", "1700000000", "1700000000"]).okValue != nil)
        let added = try await healthd.healthctl(["add", Self.bodyMass, "71", "kg", "--start", "2023-11-15T00:00:00Z"])
        #expect(added.status == 0, "\(added)")
        healthd.stop()

        let store = try EncryptedDatabase.open(directory: healthd.storeDirectory)
        try await store.writer.write { db in
            try db.execute(sql: "UPDATE apps SET display_name = 'Health' WHERE id = ?", arguments: [app])
            try db.execute(sql: "UPDATE sources SET name = 'Health' WHERE bundle_identifier = ?", arguments: [app])
        }
        try store.close()
        try healthd.start()

        let table = try await healthd.healthctl(["samples", Self.bodyMass])
        #expect(table.status == 0, "\(table)")
        let rows = table.lines.dropFirst()
        let appRow = rows.first { $0.contains(" 70 ") }, userRow = rows.first { $0.contains(" 71 ") }
        #expect(appRow?.contains("Health (\(app))") == true, "\(table.stdout)")
        #expect(userRow?.contains("Health (you)") == true, "\(table.stdout)")
        let cells = [appRow, userRow].map { $0?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(6).joined(separator: " ") }
        #expect(cells[0] != cells[1], "the app's and the user's SOURCE read the same: \(table.stdout)")
        let apps = try await healthd.healthctl(["apps", "list"])
        #expect(apps.stdout.contains("\(app) needs reinstalling") && apps.stdout.contains("the name your own entries show under"), "\(apps)")
        #expect(try await healthd.runApp(app, ["query", Self.bodyMass]).okValue == nil)
        healthd.stop()
    }

    /// F3: a process that is no installed app, run from a path holding a newline and a forged
    /// line, connects to the app socket: healthd logs the refusal with the path escaped (`\n`),
    /// on one line, and no line of its log starts with the forged text. On main the path went
    /// raw into the log and the forged text stood as a line of its own.
    @Test func anExecutablePathCannotForgeALineOfHealthdsLog() async throws {
        let broker = try BrokerProcess()
        let forged = "FORGED 99  2026-11-28 10:49:16  manager  read  Heart Rate  1"
        let folder = broker.root + "/evil\n" + forged + "\u{1B}[2K"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let executable = folder + "/e2e-client"
        try FileManager.default.copyItem(atPath: BrokerProcess.clientExecutable, toPath: executable)
        let refused = try await ProcessRun.run(executable, ["query", Self.heartRate], environment: ["OPENHEALTH_APP_SOCKET": broker.appSocket])
        #expect(refused.okValue == nil, "\(refused)")

        try #require(try await poll(timeout: 30) { broker.log.contains("no installed app manifest names the executable") },
                     "the refusal was not logged: \(broker.log)")
        let lines = broker.log.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "a forged line in healthd's log:\n\(broker.log)")
        #expect(!broker.log.contains("\u{1B}"), "a terminal escape in healthd's log:\n\(broker.log)")
        #expect(lines.contains { $0.contains("/evil\\n" + forged + "\\u{1B}[2K/e2e-client") }, "\(broker.log)")
    }
}
