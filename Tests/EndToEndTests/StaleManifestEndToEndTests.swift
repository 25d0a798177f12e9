import Foundation
import GRDB
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Testing
import TestSupport

/// A manifest installed before today's checks (here: an ESC in its display name, written into
/// a stopped healthd's store directly, as an install before the terminal-control rule left it)
/// is checked again where healthd serves an app: health-sandbox cannot launch it, it cannot
/// connect directly, and `healthctl apps list` says it needs reinstalling — each naming the
/// field and the fix. Installed again from a fixed manifest, the app works. Before the check,
/// healthd served the old manifest as installed (the launch and the direct connection
/// succeeded; commit message).
@Suite(.serialized, .timeLimit(.minutes(10))) struct StaleManifestEndToEndTests {
    static let appID = "org.test.stale"
    static let steps = "HKQuantityTypeIdentifierStepCount"

    @Test func aManifestThatNoLongerPassesIsRefusedUntilInstalledAgain() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        defer { healthd.stop() }
        let manifest = healthd.root + "/app.json"
        try JSONSerialization.data(withJSONObject: [
            "id": Self.appID, "displayName": "Stale", "executable": BrokerProcess.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
        ]).write(to: URL(fileURLWithPath: manifest))
        #expect(try await healthd.healthctl(["apps", "install", manifest]).status == 0)
        #expect(try await healthd.healthctl(["apps", "allow-direct", Self.appID]).status == 0)
        let launch = ["run", Self.appID, "--socket", healthd.adminSocket, "--", BrokerProcess.clientExecutable,
                      "request-status", "--read", Self.steps]
        let direct = [LaunchEnvironment.appSocketPathVariable: healthd.appSocket]
        let launchedBefore = try await ProcessRun.run(Products.path("health-sandbox"), launch)
        #expect(launchedBefore.okValue != nil, "control: \(launchedBefore)")
        healthd.stop()

        #expect(try Self.writeEscapeIntoDisplayName(healthd.storeDirectory) == 1)
        try healthd.start()

        let launched = try await ProcessRun.run(Products.path("health-sandbox"), launch)
        #expect(launched.status == 77, "\(launched)")
        for part in ["displayName", "U+001B", "healthctl apps install"] {
            #expect(launched.stderr.contains(part), "the refusal does not name \(part): \(launched.stderr)")
        }
        let connected = try await ProcessRun.run(BrokerProcess.clientExecutable, ["request-status", "--read", Self.steps], environment: direct)
        #expect(connected.okValue == nil && connected.stdout.contains("healthctl apps install"), "\(connected)")
        let listed = try await healthd.healthctl(["apps", "list"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("\(Self.appID) needs reinstalling"), "\(listed.stdout)")
        #expect(listed.stdout.contains("displayName") && !listed.stdout.contains("\u{1B}"), "\(listed.stdout)")

        #expect(try await healthd.healthctl(["apps", "install", manifest]).status == 0)
        let launchedAgain = try await ProcessRun.run(Products.path("health-sandbox"), launch)
        #expect(launchedAgain.okValue != nil, "reinstalled: \(launchedAgain)")
        #expect(!(try await healthd.healthctl(["apps", "list"])).stdout.contains("needs reinstalling"))
    }

    /// What an install before the terminal-control rule left: an ESC (an OSC retitling the
    /// window) in the display name, written into the stopped store (its own key files, no passcode).
    static func writeEscapeIntoDisplayName(_ directory: String) throws -> Int {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        return try store.writer.write { database in
            try database.execute(sql: "UPDATE apps SET display_name = 'Stale' || char(27) || ']0;pwned' || char(7) WHERE id = ?",
                                 arguments: [appID])
            return database.changesCount
        }
    }
}
