import Foundation
import Glibc
import HealthModel
import HealthSandboxKit
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Apps the launch agent starts (background delivery) get a data folder of their own too:
/// with `--data-root`, `SandboxedAppSpawner` passes `ROOT/APP-ID` as `--data`, and as root
/// `health-sandbox run` gives it to the app's own uid before the app runs.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AgentDataFolderTests {
    @Test(.enabled(if: getuid() == 0, "launching as root needs root; CI runs as root"))
    func anAppTheAgentLaunchesOwnsItsDataFolder() async throws {
        let world = try await EscapeWorld(user: .root)
        defer { world.stop() }
        let app = try await world.install("org.test.agent-data", product: "escape-probe")
        let dataRoot = world.root + "/agent-data"
        try FileManager.default.createDirectory(atPath: dataRoot, withIntermediateDirectories: false)
        let exits = Mutex<[LaunchOutcome]>([])
        let spawner = SandboxedAppSpawner(.init(launcher: Products.path("health-sandbox"), adminSocket: world.adminSocket,
                                                logDirectory: world.root, extraReadable: [], extraWritable: [],
                                                minimumLandlockABI: 0, dataRoot: dataRoot),
                                          report: { _ in }, onExit: { outcome in exits.withLock { $0.append(outcome) } })
        let launched = spawner.launch(LaunchRequest(requestID: 1, appID: "org.test.agent-data", executable: app.executable,
                                                    typeIdentifiers: []))
        #expect(launched.kind == .launched, "\(launched)")
        let deadline = Date().addingTimeInterval(120)
        while exits.withLock({ $0.isEmpty }), Date() < deadline { usleep(20_000) }
        let log = (try? String(contentsOfFile: world.root + "/org.test.agent-data.log", encoding: .utf8)) ?? ""
        // escape-probe without arguments prints its usage and exits 2: it ran, as the app.
        #expect(exits.withLock { $0.first?.exitStatus } == 2, "\(log)")
        var status = stat()
        let folder = dataRoot + "/org.test.agent-data"
        #expect(stat(folder, &status) == 0, "no data folder was made for the app")
        #expect(AppSandboxIDRange.contains(status.st_uid), "the app's data folder belongs to uid \(status.st_uid): \(log)")
        #expect(status.st_mode & 0o777 == 0o700)
    }
}
