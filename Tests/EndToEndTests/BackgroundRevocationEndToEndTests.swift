import Foundation
import Testing
import TestSupport

/// A revoked permission cancels the launches already owed (DESIGN.md §7.6, issue 18.1): another
/// app's save makes a launch of the reader owed; the user then revokes the reader's read access
/// (or its temporary grant expires, or its window narrows past the sample) before the launch is
/// sent — because no agent was attached yet, the frequency's period had not passed, or a back-off
/// was running. The launch must not go out, and no save happens after the revocation (a new save
/// would be re-checked anyway and prove nothing).
///
/// Each test has a control: a second reader, identical but never revoked, is launched for the
/// same change at the same moment — so the revoked reader's missing launch is the revocation's
/// doing, not a slow agent's.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BackgroundRevocationEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let heartRate = "HKQuantityTypeIdentifierHeartRate"
    let entitled = ["com.apple.developer.healthkit.background-delivery"]
    let revoked = "org.test.bg-revoked", kept = "org.test.bg-kept", writer = "org.test.bg-writer"

    /// How a reader loses sight of the change between the change and its launch.
    enum Loss: String, CaseIterable, CustomStringConvertible {
        case revoke, expire, narrowWindow
        var description: String { rawValue }
    }

    func save(at start: Int = 1_700_000_000) -> [String] {
        ["save", steps, "100", "count", "\(start)", "\(start + 60)"]
    }

    /// healthd with `arguments`, the two readers registered with `frequency`, the writer. The
    /// `expire` case's grant lasts an hour, so the set-up and the save run under it on any
    /// machine; `lose(.expire)` then shortens it, so its expiry is an explicit step, not a race.
    func setUp(_ arguments: [String] = [], frequency: String = "immediate", loss: Loss = .revoke) async throws -> BrokerProcess {
        let broker = try BrokerProcess(extraArguments: arguments)
        try await broker.installClient(revoked, entitlements: entitled)
        try await broker.installClient(kept, entitlements: entitled)
        try await broker.installClient(writer)
        try await broker.set(kept, "read", steps, allowed: true)
        if loss == .expire {
            let grant = try await broker.healthctl(["grant", revoked, "read", steps, "--for", "1h"])
            #expect(grant.status == 0, "\(grant)")
        } else {
            try await broker.set(revoked, "read", steps, allowed: true)
        }
        try await broker.set(writer, "share", steps, allowed: true)
        for app in [revoked, kept] {
            #expect(try await broker.runApp(app, ["background-enable", steps, "--frequency", frequency]).okValue == "enabled")
        }
        return broker
    }

    /// Takes the change away from the revoked reader, without any save.
    func lose(_ loss: Loss, on broker: BrokerProcess) async throws {
        switch loss {
        case .revoke:
            try await broker.set(revoked, "read", steps, allowed: false)
        case .expire:
            // Shortened to 1 s; healthd's expiry scheduler logs the expiry once it has passed.
            let grant = try await broker.healthctl(["grant", revoked, "read", steps, "--for", "1s"])
            #expect(grant.status == 0, "\(grant)")
            #expect(try await broker.waitForLog("temporary grant expired"), "\(broker.log)")
        case .narrowWindow:
            // The saved sample is from 2023: outside a 30-day window.
            let grant = try await broker.healthctl(["grant", revoked, "read", steps, "--window", "30d"])
            #expect(grant.status == 0, "\(grant)")
        }
    }

    func launchEntries(_ broker: BrokerProcess, _ appID: String) async throws -> Int {
        try await broker.healthctl(["log", "--app", appID, "--json"]).lines.count { $0.contains(#""action":"launch""#) }
    }

    @Test(arguments: Loss.allCases) func aLaunchWaitingForTheAgent(_ loss: Loss) async throws {
        let broker = try await setUp(loss: loss)
        #expect(try await broker.runApp(writer, save()).okValue != nil)
        try await lose(loss, on: broker)

        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [steps])
        #expect(try await agent.waitForAppLine(kept, "ok background"), "\(agent.log)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(agent.appLog(revoked) == nil, "launched after \(loss): \(agent.appLog(revoked) ?? "")")
        #expect(try await launchEntries(broker, revoked) == 0)
    }

    /// `--background-period-scale`: an hour or a day passes in 30 s — long enough for the save
    /// and the revocation (two processes) to come within the period on a loaded machine.
    @Test(arguments: [("hourly", 120), ("daily", 2880)])
    func aLaunchWaitingForItsPeriod(_ frequency: String, _ scale: Int) async throws {
        let broker = try await setUp(["--background-period-scale", "\(scale)"], frequency: frequency)
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [steps])
        #expect(try await broker.waitForLog("launch agent attached"))
        // The first launch is at once (never launched before); the apps acknowledge and exit.
        #expect(try await broker.runApp(writer, save()).okValue != nil)
        for app in [revoked, kept] { #expect(try await agent.waitForAppLine(app, "ok background"), "\(agent.log)") }
        // Their observer queries must have ended before the next change, or it goes to them
        // instead of to a launch: wait for healthd to have the agent's word that both exited
        // (a fixed pause was not enough on a loaded machine).
        #expect(try await poll(timeout: 120) { broker.log.components(separatedBy: "background-launched app exited").count - 1 >= 2 },
                "\(broker.log)")

        // The second change waits for the period; the revocation comes meanwhile.
        #expect(try await broker.runApp(writer, save(at: 1_700_000_600)).okValue != nil)
        try await lose(.revoke, on: broker)
        #expect(try await agent.waitForAppLine(kept, "ok background", count: 2), "\(agent.log)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(agent.appLogLines(revoked).count { $0 == "ok background" } == 1, "\(agent.appLog(revoked) ?? "")")
        #expect(try await launchEntries(broker, revoked) == 1)
    }

    /// The launched apps observe heart rate, not steps, so they never acknowledge the steps
    /// update: after the acknowledgement timeout (2 s) the launch is retried after a back-off
    /// (30 s: long enough for the revocation to come within it on a loaded machine).
    @Test func aLaunchWaitingForItsBackoff() async throws {
        let broker = try await setUp(["--background-ack-timeout", "2", "--background-first-backoff", "30"])
        for app in [revoked, kept] { try await broker.set(app, "read", heartRate, allowed: true) }
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [heartRate])
        #expect(try await broker.waitForLog("launch agent attached"))
        #expect(try await broker.runApp(writer, save()).okValue != nil)
        for app in [revoked, kept] { #expect(try await agent.waitForAppLine(app, "ok background"), "\(agent.log)") }

        try await lose(.revoke, on: broker)
        #expect(try await agent.waitForAppLine(kept, "ok background", count: 2), "the back-off relaunch: \(agent.log)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(agent.appLogLines(revoked).count { $0 == "ok background" } == 1, "\(agent.appLog(revoked) ?? "")")
        #expect(try await launchEntries(broker, revoked) == 1)
    }
}
