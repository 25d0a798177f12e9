import Foundation
import Glibc
import Testing
import TestSupport

/// Background delivery and the locked store, with real sandboxed apps and the real launch agent:
/// a save made while locked (by a separate, sandboxed app) launches the reading app only after
/// the unlock merged it — never while locked, when its data cannot be read.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LockedStoreBackgroundEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let reader = "org.test.locked-bg", writer = "org.test.locked-bg-writer"

    /// healthd running, the reader entitled to background delivery and reading steps with it
    /// enabled, the writer sharing steps.
    func setUp() async throws -> RestartableHealthd {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await healthd.installClient(reader, entitlements: ["com.apple.developer.healthkit.background-delivery"])
        try await healthd.installClient(writer, entitlements: [])
        try await healthd.set(reader, "read", steps, allowed: true)
        try await healthd.set(writer, "share", steps, allowed: true)
        #expect(try await healthd.runApp(reader, ["background-enable", steps]).okValue == "enabled")
        return healthd
    }

    @Test func aSaveMadeWhileLockedLaunchesTheReaderAfterTheMerge() async throws {
        let healthd = try await setUp()
        let agent = try LaunchAgentProcess(root: healthd.root, adminSocket: healthd.adminSocket, backgroundTypes: [steps])
        defer { agent.stop() }

        #expect(try await healthd.healthctl(["lock"]).status == 0)
        let save = try await healthd.runApp(writer, ["save", steps, "100", "count", "1700000000", "1700000060"])
        #expect(save.okValue != nil, "a sandboxed app's save is accepted while locked: \(save)")
        try await Task.sleep(for: .seconds(3))
        #expect(agent.appLogLines(reader).isEmpty, "launched while locked: \(agent.appLog(reader) ?? "")")

        #expect(try await healthd.healthctl(["unlock"]).status == 0)
        #expect(try await agent.waitForAppLine(reader, "ok background"), "\(agent.log)\n\(healthd.log)")
        #expect(agent.appLogLines(reader).count { $0 == "launched reason=background-delivery" } == 1, "\(agent.appLog(reader) ?? "")")
    }

    /// A launch owed from before the lock, due while locked (the agent attaches then), cannot be
    /// re-checked — the store cannot be read — so it is not sent. The unlock merges nothing and
    /// posts no event, and nothing else happens: the launch is sent only because a failed
    /// re-check (or check) is tried again after a delay (`BackgroundDeliveryPolicy.
    /// firstRetryDelay`). Before, it waited for an unrelated event, here forever.
    @Test func aLaunchWhoseRecheckFoundTheStoreLockedIsSentAfterTheUnlockAlone() async throws {
        let healthd = try await setUp()
        // Saved while unlocked and with no agent: the launch is owed and waits for one.
        #expect(try await healthd.runApp(writer, ["save", steps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        #expect(try await healthd.healthctl(["lock"]).status == 0)

        let agent = try LaunchAgentProcess(root: healthd.root, adminSocket: healthd.adminSocket, backgroundTypes: [steps])
        defer { agent.stop() }
        // The agent's arrival makes the launch due; its re-check cannot read the locked store.
        // (Had the save's own check not run before the lock, that check fails instead: the same
        // retry covers it, and this waits for either.)
        #expect(try await poll(timeout: 120) { healthd.log.contains("background delivery: re-check failed")
                                                || healthd.log.contains("background delivery: check failed") },
                "\(healthd.log)")
        #expect(agent.appLogLines(reader).isEmpty, "launched while locked: \(agent.appLog(reader) ?? "")")

        #expect(try await healthd.healthctl(["unlock"]).status == 0)
        #expect(try await agent.waitForAppLine(reader, "ok background"),
                "the owed launch was never retried after the unlock: \(agent.log)\n\(healthd.log)")
        #expect(agent.appLogLines(reader).count { $0 == "launched reason=background-delivery" } == 1, "\(agent.appLog(reader) ?? "")")
    }
}
