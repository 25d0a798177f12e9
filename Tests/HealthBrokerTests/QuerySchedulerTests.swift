@testable import HealthBroker
import Synchronization
import Testing

/// Large-query slots go round-robin across apps: an app with many queries queued delays another
/// app's query by at most one of its own.
@Suite(.timeLimit(.minutes(10))) struct QuerySchedulerTests {
    @Test func aFreedSlotGoesToTheNextAppNotTheNextQuery() async throws {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 1
        limits.largeQueriesRunningPerApp = 1
        let scheduler = QueryScheduler(limits: limits)
        let order = RunOrder()
        let (gate, open) = AsyncStream<Void>.makeStream()
        // App A takes the slot and holds it; then queues 5 more; then B queues 1.
        let first = Task { try await scheduler.run(app: "A") { for await _ in gate {} } }
        try await Task.sleep(for: .milliseconds(100))
        var queued: [Task<Void, any Error>] = []
        for name in ["A1", "A2", "A3", "A4", "A5", "B1"] {
            queued.append(Task { try await scheduler.run(app: String(name.prefix(1))) { order.append(name) } })
            try await Task.sleep(for: .milliseconds(20))
        }
        open.finish()
        try await first.value
        for task in queued { try await task.value }
        let ran = order.names
        #expect(ran.firstIndex(of: "B1") == 1, "ran in order \(ran)")
        #expect(ran.filter { $0.hasPrefix("A") } == ["A1", "A2", "A3", "A4", "A5"])
    }

    @Test func aCancelledWaitLeavesTheQueue() async throws {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 1
        let scheduler = QueryScheduler(limits: limits)
        let (gate, open) = AsyncStream<Void>.makeStream()
        let holder = Task { try await scheduler.run(app: "A") { for await _ in gate {} } }
        try await Task.sleep(for: .milliseconds(100))
        let waiter = Task { try await scheduler.run(app: "B") {} }
        try await Task.sleep(for: .milliseconds(100))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        open.finish()
        try await holder.value
        // The slot is free again.
        try await scheduler.run(app: "C") {}
    }
}

/// The order queries ran in, shared with their tasks.
final class RunOrder: Sendable {
    private let list = Mutex<[String]>([])
    var names: [String] { list.withLock { $0 } }
    func append(_ name: String) { list.withLock { $0.append(name) } }
}
