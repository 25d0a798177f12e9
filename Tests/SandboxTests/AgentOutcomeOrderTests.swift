import Foundation
import Glibc
import HealthModel
import HealthSandboxKit
import HealthWire
import Synchronization
import Testing
import TestSupport

/// The launch agent reports an app's `exited` outcome only after the app's `launched` outcome,
/// however fast the app dies: healthd counts an exit against the launch it has heard of, and an
/// exit arriving first left it waiting its acknowledgement timeout for an app long gone.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AgentOutcomeOrderTests {
    @Test(.enabled(if: getuid() == 0, "launching as root needs root; CI runs as root"))
    func anAppThatDiesAtOnceIsReportedLaunchedBeforeExited() async throws {
        let world = try await EscapeWorld(user: .root)
        defer { world.stop() }
        let app = try await world.install("org.test.agent-order", product: "escape-probe")
        let outcomes = Mutex<[LaunchOutcome.Kind]>([])
        let reapedAt = Mutex<Bool>(false)
        let spawner = SandboxedAppSpawner(.init(launcher: Products.path("health-sandbox"), adminSocket: world.adminSocket,
                                                logDirectory: world.root, extraReadable: [], extraWritable: [],
                                                minimumLandlockABI: 0, dataRoot: nil),
                                          report: { line in if line.contains("exited with status") { reapedAt.withLock { $0 = true } } },
                                          onExit: { outcome in outcomes.withLock { $0.append(outcome.kind) } })
        // The launch outcome is delivered only once the app (escape-probe without arguments
        // prints its usage and exits 2) has already been reaped: the exit must still come second.
        spawner.launch(LaunchRequest(requestID: 1, appID: "org.test.agent-order", executable: app.executable,
                                     typeIdentifiers: [])) { outcome in
            let deadline = Date().addingTimeInterval(120)
            while !reapedAt.withLock({ $0 }), Date() < deadline { usleep(20_000) }
            usleep(200_000)  // room for an exit report that does not wait (the bug) to land first
            outcomes.withLock { $0.append(outcome.kind) }
        }
        let deadline = Date().addingTimeInterval(120)
        while outcomes.withLock({ $0.count }) < 2, Date() < deadline { usleep(20_000) }
        #expect(reapedAt.withLock { $0 }, "the app was never reaped")
        #expect(outcomes.withLock { $0 } == [.launched, .exited])
    }
}
