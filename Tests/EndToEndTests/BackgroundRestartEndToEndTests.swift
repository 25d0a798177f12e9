import Foundation
import Glibc
import Testing
import TestSupport

/// Background delivery's schedule survives healthd being killed (issue 18.3): a change made
/// just before a SIGKILL, whose launch was owed but not yet sent (no agent was attached), still
/// launches the app — exactly once — after healthd restarts on the same store.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BackgroundRestartEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let reader = "org.test.bg-restart", writer = "org.test.bg-restart-writer"


    /// `killAfterCheck`: the kill comes after healthd had time to check the change (its owed
    /// launch persisted), or right after the save returned (the check may not have run).
    @Test(arguments: [true, false]) func aLaunchOwedWhenHealthdIsKilledHappensOnceAfterRestart(_ killAfterCheck: Bool) async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await healthd.installClient(reader, entitlements: ["com.apple.developer.healthkit.background-delivery"])
        try await healthd.installClient(writer, entitlements: [])
        try await healthd.set(reader, "read", steps, allowed: true)
        try await healthd.set(writer, "share", steps, allowed: true)
        #expect(try await healthd.runApp(reader, ["background-enable", steps]).okValue == "enabled")
        #expect(try await healthd.runApp(writer, ["save", steps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        if killAfterCheck { try await Task.sleep(for: .seconds(1)) }
        healthd.kill()

        try healthd.start()
        let agent = try LaunchAgentProcess(root: healthd.root, adminSocket: healthd.adminSocket, backgroundTypes: [steps])
        #expect(try await agent.waitForAppLine(reader, "ok background"), "\(agent.log)\n\(healthd.log)")
        try await Task.sleep(for: .seconds(2))
        #expect(agent.appLogLines(reader).count { $0 == "launched reason=background-delivery" } == 1, "\(agent.appLog(reader) ?? "")")
        let log = try await healthd.healthctl(["log", "--app", reader, "--json"])
        #expect(log.lines.count { $0.contains(#""action":"launch""#) } == 1, "\(log)")

        // Acknowledged: a further restart owes nothing.
        agent.stop()
        healthd.stop()
        try healthd.start()
        let again = try LaunchAgentProcess(root: healthd.root, adminSocket: healthd.adminSocket, backgroundTypes: [steps])
        try await Task.sleep(for: .seconds(3))
        #expect(again.appLogLines(reader).count { $0 == "launched reason=background-delivery" } == 1, "\(again.log)")
    }
}
