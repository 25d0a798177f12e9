import Foundation
import Glibc
import HealthSandboxKit
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Folders the launch agent gives one app only (`--app-allow-write APP-ID=PATH`): two apps
/// launched by one agent each write their own folder and do not even see the other's (ENOENT:
/// it is not in their namespace), and the agent refuses a writable folder another app is
/// given too unless told to share it. Before, the agent's only folder options gave every app
/// the same folders (kept, documented as shared).
@Suite(.timeLimit(.minutes(10)), .serialized) struct AgentPerAppFolderTests {
    static let apps = ["org.test.folder-a", "org.test.folder-b"]

    @Test(.enabled(if: getuid() == 0, "launching as root needs root; CI runs as root"))
    func twoAppsOfOneAgentEachSeeOnlyTheirOwnFolder() async throws {
        let world = try await EscapeWorld(user: .root)
        defer { world.stop() }
        var executables: [String: String] = [:]
        for appID in Self.apps { executables[appID] = try await world.install(appID, product: "escape-probe").executable }
        let folders = Dictionary(uniqueKeysWithValues: Self.apps.map { ($0, world.root + "/own/" + $0) })
        for folder in folders.values {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o777)  // as root, each app runs as its own uid; --allow-write keeps owners and modes
        }
        let grants = AgentFolderGrants(perApp: try AgentFolderGrants.perApp(
            readable: [], writable: Self.apps.map { "\($0)=\(folders[$0] ?? "")" }))
        try grants.checked(allowSharedWrites: false, logDirectory: nil, tools: [])
        let exits = Mutex<[String: Int32]>([:])
        var configuration = SandboxedAppSpawner.Configuration(launcher: Products.path("health-sandbox"), adminSocket: world.adminSocket,
                                                              logDirectory: world.root, extraReadable: [], extraWritable: [],
                                                              minimumLandlockABI: 0)
        configuration.perApp = grants.perApp
        configuration.environment = ["ESCAPE_PROBE_TRY_FOLDERS": Self.apps.compactMap { folders[$0] }.joined(separator: ":"),
                                     "PATH": "/usr/bin:/bin"]
        let spawner = SandboxedAppSpawner(configuration, report: { _ in },
                                          onExit: { outcome in exits.withLock { $0[outcome.appID] = outcome.exitStatus } })
        for (index, appID) in Self.apps.enumerated() {
            let launched = spawner.launch(LaunchRequest(requestID: UInt64(index + 1), appID: appID, executable: executables[appID] ?? "",
                                                        typeIdentifiers: []))
            #expect(launched.kind == .launched, "\(launched)")
        }
        let deadline = Date().addingTimeInterval(120)
        while exits.withLock({ $0.count }) < Self.apps.count, Date() < deadline { usleep(20_000) }
        for appID in Self.apps {
            let log = (try? String(contentsOfFile: world.root + "/\(appID).log", encoding: .utf8)) ?? ""
            #expect(exits.withLock { $0[appID] } == 0, "\(appID): \(log)")
            for other in Self.apps {
                let expected = other == appID ? "allowed" : "denied (ENOENT)"
                #expect(log.contains("write \(folders[other] ?? ""): \(expected)\n"), "\(appID) writing \(other)'s folder: \(log)")
            }
        }
    }

    /// Each way two apps could end up sharing a writable folder, refused by the real command
    /// line before the agent connects anywhere (exit 64 naming both and the fix; one app's
    /// folder as the data root is the agent's own folder, exit 71, `AgentOwnFolderTests`); with
    /// --allow-shared-writes, or disjoint folders, the options are accepted (the agent then
    /// fails only to reach the absent healthd: exit 77 or it keeps retrying, so it is stopped).
    @Test func aWritableFolderOfOneAppIsNotGivenToAnother() async throws {
        let root = NSTemporaryDirectory() + "ohk-agent-folders-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root + "/a/inner", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/b", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        symlink(root + "/a", root + "/link-to-a")
        let a = "--app-allow-write=org.test.a=\(root)/a"
        let overlapping: [(String, [String])] = [
            ("the same folder", [a, "--app-allow-write=org.test.b=\(root)/a"]),
            ("a folder in it", [a, "--app-allow-write=org.test.b=\(root)/a/inner"]),
            ("a folder containing it", [a, "--app-allow-write=org.test.b=\(root)"]),
            ("a link to it", [a, "--app-allow-write=org.test.b=\(root)/link-to-a"]),
            ("read by another app", [a, "--app-allow-read=org.test.b=\(root)/a"]),
            ("read by every app", [a, "--allow-read=\(root)/a/inner"]),
            ("written by every app", [a, "--allow-write=\(root)"]),
        ]
        for (what, options) in overlapping {
            let refused = try await ProcessRun.run(Products.path("health-sandbox"), ["agent", "--socket", root + "/none.sock"] + options,
                                                   timeout: 30)
            #expect(refused.status == 64, "\(what): \(refused)")
            #expect(refused.stderr.contains("org.test.a") && refused.stderr.contains("--allow-shared-writes"), "\(what): \(refused.stderr)")
        }
        for (what, options) in [("shared on purpose", [a, "--app-allow-write=org.test.b=\(root)/a", "--allow-shared-writes"]),
                                ("disjoint", [a, "--app-allow-write=org.test.b=\(root)/b", "--app-allow-read=org.test.a=\(root)/b/../a"])] {
            let accepted = try await ProcessRun.run(Products.path("health-sandbox"), ["agent", "--socket", root + "/none.sock"] + options,
                                                    timeout: 3)
            #expect(accepted.status != 64, "\(what): \(accepted)")
        }
        for malformed in ["--app-allow-write=/srv/a", "--app-allow-write=org.test.a=relative", "--app-allow-read=.hidden=/srv"] {
            let refused = try await ProcessRun.run(Products.path("health-sandbox"), ["agent", malformed], timeout: 30)
            #expect(refused.status == 64, "\(malformed): \(refused)")
        }
    }
}
