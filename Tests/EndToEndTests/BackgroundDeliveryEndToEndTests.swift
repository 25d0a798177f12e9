import Foundation
import Testing

/// Background delivery through the whole stack: a real healthd, a real `health-sandbox agent`,
/// and the scripted app, which enables delivery, exits, and is launched (confined, bound to its
/// id) when another app saves — but never for a save it may not see.
@Suite(.timeLimit(.minutes(10)), .serialized) struct BackgroundDeliveryEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let entitled = ["com.apple.developer.healthkit.background-delivery"]

    func save(_ value: Int, at minute: Int) -> [String] {
        let start = 1_700_000_000 + minute * 60
        return ["save", steps, "\(value)", "count", "\(start)", "\(start + 60)"]
    }

    /// `healthctl log --app APP --json` entries whose action is `launch`.
    func launchEntries(_ broker: BrokerProcess, _ appID: String) async throws -> [String] {
        let result = try await broker.healthctl(["log", "--app", appID, "--json"])
        return result.lines.filter { $0.contains(#""action":"launch""#) }
    }

    @Test func aVisibleSaveLaunchesTheAppAndAHiddenOneNeverDoes() async throws {
        let broker = try BrokerProcess()
        let reader = "org.test.bg-reader", denied = "org.test.bg-denied", writer = "org.test.bg-writer"
        try await broker.installClient(reader, entitlements: entitled)
        try await broker.installClient(denied, entitlements: entitled)
        try await broker.installClient(writer)
        try await broker.set(reader, "read", steps, allowed: true)
        try await broker.set(denied, "read", steps, allowed: false)
        for app in [denied, writer] { try await broker.set(app, "share", steps, allowed: true) }
        for app in [reader, denied] {
            #expect(try await broker.runApp(app, ["background-enable", steps]).okValue == "enabled")
        }
        let listing = try await broker.healthctl(["apps", "background", reader])
        #expect(listing.lines.contains { $0.contains(reader) && $0.contains("immediate") }, "\(listing)")

        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [steps])
        #expect(try await broker.waitForLog("launch agent attached"), "\(agent.log)")
        #expect(try await broker.runApp(writer, save(100, at: 0)).okValue != nil)

        #expect(try await agent.waitForAppLine(reader, "ok background"), "\(agent.log)\n\(agent.appLog(reader) ?? "-")")
        #expect(agent.appLogLines(reader).prefix(3) == [
            "launched reason=background-delivery", "background-update \(steps) 1", "ok background",
        ])
        // Both registrations were checked for that commit before the reader's launch was sent.
        #expect(agent.appLog(denied) == nil, "a hidden save launched an app denied reading it: \(agent.log)")
        #expect(try await launchEntries(broker, denied).isEmpty)
        #expect(try await launchEntries(broker, reader).count >= 1)

        // Control: the denied app's own save is visible to it, so it is launched — and sees only that.
        #expect(try await broker.runApp(denied, save(5, at: 1)).okValue != nil)
        #expect(try await agent.waitForAppLine(denied, "ok background"), "\(agent.log)")
        #expect(agent.appLogLines(denied).contains("background-update \(steps) 1"), "\(agent.appLog(denied) ?? "-")")
        let deniedLaunches = try await launchEntries(broker, denied)
        #expect(deniedLaunches.count == 1, "\(deniedLaunches)\n\(agent.log)")
    }

    @Test func aLaunchWaitsForTheAgentAndNeedsTheEntitlement() async throws {
        let broker = try BrokerProcess()
        let reader = "org.test.bg-late", plain = "org.test.bg-plain", writer = "org.test.bg-writer"
        try await broker.installClient(reader, entitlements: entitled)
        try await broker.installClient(plain)
        try await broker.installClient(writer)
        try await broker.set(reader, "read", steps, allowed: true)
        try await broker.set(writer, "share", steps, allowed: true)

        let refused = try await broker.runApp(plain, ["background-enable", steps])
        #expect(refused.errorCode == 4, "errorAuthorizationDenied without the entitlement: \(refused)")
        #expect(refused.stdout.contains("com.apple.developer.healthkit.background-delivery"))

        #expect(try await broker.runApp(reader, ["background-enable", steps, "--frequency", "hourly"]).okValue == "enabled")
        #expect(try await broker.runApp(writer, save(100, at: 0)).okValue != nil)
        #expect(try await broker.runApp(writer, save(200, at: 1)).okValue != nil)

        // No agent yet: the launch waits in healthd, and both saves make one launch when one comes.
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [steps])
        #expect(try await agent.waitForAppLine(reader, "ok background"), "\(agent.log)")
        #expect(agent.appLogLines(reader).contains("background-update \(steps) 2"))
        #expect(try await launchEntries(broker, reader).count == 1)

        // Disabled: a further save launches nothing (its hourly period would not allow one either,
        // so check the registration is gone rather than wait for a launch that cannot come).
        #expect(try await broker.runApp(reader, ["background-disable", "--all"]).okValue == "disabled")
        let listing = try await broker.healthctl(["apps", "background", reader])
        #expect(listing.lines == ["\(reader) has not enabled background delivery."], "\(listing)")
    }
}
