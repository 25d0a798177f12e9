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
