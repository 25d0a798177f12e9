import Foundation
import Testing
import TestSupport

/// An observer update counts as delivered only when the app calls its completion handler
/// (Apple, HKObserverQueryCompletionHandler: calling it "tells HealthKit that you have
/// successfully received the background data. If you do not call this block, HealthKit
/// continues to attempt to launch your app using a backoff algorithm").
///
/// The race these pin down: an app with background delivery receives an update on its running
/// observer query and exits before acknowledging it. healthd used to count a change that
/// reached a running observer as delivered (it launched only apps that observed nothing), so
/// the change was never delivered. Each test makes the race certain instead of likely: the app
/// prints that its observer is running, the test saves only then, and the app exits on the
/// update without calling the completion handler. Then the app must be launched for it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BackgroundUnacknowledgedUpdateEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let entitled = ["com.apple.developer.healthkit.background-delivery"]
    let reader = "org.test.bg-unacked", writer = "org.test.bg-unacked-writer"
    let launchedLine = "launched reason=background-delivery"

    func setUp() async throws -> BrokerProcess {
        let broker = try BrokerProcess()
        try await broker.installClient(reader, entitlements: entitled)
        try await broker.installClient(writer)
        try await broker.set(reader, "read", steps, allowed: true)
        try await broker.set(writer, "share", steps, allowed: true)
        #expect(try await broker.runApp(reader, ["background-enable", steps]).okValue == "enabled")
        return broker
    }

    func save(_ broker: BrokerProcess, minute: Int) async throws {
        let start = 1_700_000_000 + minute * 60
        #expect(try await broker.runApp(writer, ["save", steps, "100", "count", "\(start)", "\(start + 60)"]).okValue != nil)
    }

    func launchEntries(_ broker: BrokerProcess) async throws -> Int {
        try await broker.healthctl(["log", "--app", reader, "--json"]).lines.count { $0.contains(#""action":"launch""#) }
    }

    /// Launched for the first save, the app acknowledges that update and keeps observing; the
    /// second save reaches its running observer, and it exits without acknowledging. It must be
    /// launched again, and that launch's update sees both samples.
    @Test func aLaunchedAppThatExitsBeforeAcknowledgingALaterUpdateIsLaunchedAgain() async throws {
        let broker = try await setUp()
        // 60 s: the relaunched instance waits that long for an update that never comes (a hang
        // guard); the test ends before, and healthd's exit ends the instance.
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [steps],
                                           environment: ["E2E_CLIENT_BACKGROUND_DROP_NEXT": "60"])
        #expect(try await broker.waitForLog("launch agent attached"))
        try await save(broker, minute: 0)
        #expect(try await agent.waitForAppLine(reader, "awaiting-next-update"), "\(agent.log)")

        try await save(broker, minute: 1)
        // The agent's and healthd's logs too: an instance that vanished without a line (a signal)
        // shows only there ("was killed by signal N", the observer's end, a second launch).
        #expect(try await agent.waitForAppLine(reader, "dropped-update \(steps)"),
                "\(agent.appLog(reader) ?? "")\n\(agent.log)\n\(broker.log)")
        #expect(try await agent.waitForAppLine(reader, launchedLine, count: 2),
                "the unacknowledged update was never re-delivered: \(agent.appLog(reader) ?? "")\n\(agent.log)\n\(broker.log)")
        #expect(try await agent.waitForAppLine(reader, "background-update \(steps) 2"), "\(agent.appLog(reader) ?? "")")
        #expect(try await launchEntries(broker) == 2)
    }

    /// The same race for an app the user runs (not launched by healthd): its observer query
    /// receives the change and the app exits without acknowledging; healthd must launch it.
    @Test func aRunningAppThatExitsBeforeAcknowledgingIsLaunchedForTheUpdate() async throws {
        let broker = try await setUp()
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [steps])
        #expect(try await broker.waitForLog("launch agent attached"))
        let live = try LiveApp(reader, ["observe", steps, "--count", "2", "--unacknowledged-last"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("update 1"), "\(live.lines)")

        try await save(broker, minute: 0)
        let result = await live.finish()
        #expect(result.lines == ["update 1", "update 2 unacknowledged"], "\(result)")
        #expect(try await agent.waitForAppLine(reader, "ok background"),
                "the unacknowledged update was never delivered by a launch: \(agent.log)\n\(broker.log)")
        #expect(agent.appLogLines(reader).contains("background-update \(steps) 1"), "\(agent.appLog(reader) ?? "")")
        #expect(try await launchEntries(broker) == 1)
    }
}
