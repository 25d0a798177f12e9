import Foundation
import Testing

/// HKObserverQuery and HKSourceQuery through the whole stack: observers wake only for changes
/// the app may see, and source queries list only sources of visible samples.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ObserverQueryEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"

    func save(_ value: Int, at minute: Int) -> [String] {
        let start = 1_700_000_000 + minute * 60
        return ["save", steps, "\(value)", "count", "\(start)", "\(start + 60)"]
    }

    @Test func anObserverFiresAtStartAndThenOnlyForChangesTheAppMaySee() async throws {
        let broker = try BrokerProcess()
        let denied = try await broker.installClient("org.test.denied-observer")
        let hidden = try await broker.installClient("org.test.hidden-writer")
        for app in [denied, hidden] { try await broker.set(app, "share", steps, allowed: true) }
        try await broker.set(denied, "read", steps, allowed: false)

        let live = try LiveApp(denied, ["observe", steps, "--count", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("update 1"), "\(live.lines)")  // HealthKit fires once at start
        #expect(try await broker.runApp(hidden, save(100, at: 0)).okValue != nil)
        // A correct broker never sends an update for the hidden save; a leaking one would within
        // milliseconds, so this wait can only fail when something leaks.
        #expect(try await live.waitForLine("update 2", timeout: 1) == false, "\(live.lines)")
        #expect(try await broker.runApp(denied, save(5, at: 1)).okValue != nil)
        let result = await live.finish()
        #expect(result.lines == ["update 1", "update 2", "ok 2"], "\(result)")
    }

    @Test func aGrantedObserverWakesForOtherAppsSaves() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.granted-observer")
        let writer = try await broker.installClient("org.test.writer")
        try await broker.set(reader, "read", steps, allowed: true)
        try await broker.set(writer, "share", steps, allowed: true)
        let live = try LiveApp(reader, ["observe", steps, "--count", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("update 1"), "\(live.lines)")
        #expect(try await broker.runApp(writer, save(100, at: 0)).okValue != nil)
        let result = await live.finish()
        #expect(result.okValue == "2", "\(result)")
    }

    /// HealthKit calls an observer's update handler for every matching change: the query
    /// "updates your app when the HealthKit store saves or deletes a matching sample"
    /// (developer.apple.com/documentation/healthkit/hkobserverquery), and the completion handler
    /// only "tells HealthKit that you have successfully received the background data"
    /// (developer.apple.com/documentation/healthkit/hkobserverquerycompletionhandler). So an app
    /// that never calls it still gets an update per change. Until session 15 healthd held every
    /// update after the first until the completion handler was called (update 2 never came).
    @Test func anAppThatNeverCallsTheCompletionHandlerStillGetsAnUpdatePerChange() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.withholding-observer")
        let writer = try await broker.installClient("org.test.observed-writer")
        try await broker.set(reader, "read", steps, allowed: true)
        try await broker.set(writer, "share", steps, allowed: true)
        let live = try LiveApp(reader, ["observe", steps, "--count", "3", "--withhold-completion"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("update 1 withheld"), "\(live.lines)")
        #expect(try await broker.runApp(writer, save(100, at: 0)).okValue != nil)
        // One update per save: the second is awaited before the third save, so the two are
        // never folded into one.
        #expect(try await live.waitForLine("update 2 withheld", timeout: 20), "\(live.lines)")
        #expect(try await broker.runApp(writer, save(200, at: 1)).okValue != nil)
        let result = await live.finish(timeout: 20)
        #expect(result.lines == ["update 1 withheld", "update 2 withheld", "update 3 withheld", "ok 3"], "\(result)")
    }

    @Test func aSourceQueryListsOnlySourcesOfVisibleSamples() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.source-reader")
        let denied = try await broker.installClient("org.test.source-denied")
        let writer = try await broker.installClient("org.test.source-writer")
        for app in [denied, writer] { try await broker.set(app, "share", steps, allowed: true) }
        try await broker.set(reader, "read", steps, allowed: true)
        try await broker.set(denied, "read", steps, allowed: false)
        #expect(try await broker.runApp(writer, save(100, at: 0)).okValue != nil)

        #expect(try await broker.runApp(reader, ["sources", steps]).lines == ["source \(writer)", "ok 1"])
        #expect(try await broker.runApp(denied, ["sources", steps]).lines == ["ok 0"])
        #expect(try await broker.runApp(denied, save(5, at: 1)).okValue != nil)
        #expect(try await broker.runApp(denied, ["sources", steps]).lines == ["source \(denied)", "ok 1"])
        #expect(try await broker.runApp(reader, ["sources", steps]).lines == ["source \(denied)", "source \(writer)", "ok 2"])
    }
}
