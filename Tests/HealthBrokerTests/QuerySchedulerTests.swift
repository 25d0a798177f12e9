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

    /// A slot freed after a query looked for one and before it queued is taken, not lost.
    /// `beforeQueueing` holds the query in exactly that window while the one holding the slot (the
    /// same app's, as in stack-bench's back-to-back query rounds) ends. Before the fix the freed
    /// slot went to nobody and the query waited for a release that never came: healthd idle,
    /// the app blocked reading its answer.
    @Test func aSlotFreedBeforeTheWaiterQueuesIsTaken() async throws {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 1
        limits.largeQueriesRunningPerApp = 1
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (released, holderReleased) = AsyncStream<Void>.makeStream()
        let windowReached = Mutex(false)
        let scheduler = QueryScheduler(limits: limits, beforeQueueing: {
            windowReached.withLock { $0 = true }
            open.finish()
            for await _ in released { break }  // the holder's `run` has returned: its slot is free
        })
        let holder = Task {
            try await scheduler.run(app: "A") { for await _ in gate {} }
            holderReleased.yield()
        }
        while scheduler.runningCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let next = Task { try await scheduler.run(app: "A") {} }
        let ran = await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await next.value) != nil }
            group.addTask {
                // A hang guard only: the fixed scheduler runs the query as soon as the holder ends.
                try? await Task.sleep(for: .seconds(10))
                next.cancel()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        try await holder.value
        #expect(windowReached.withLock { $0 }, "the query found the slot taken and went to queue")
        #expect(ran, "the query never got the slot its app's previous query freed")
        #expect(scheduler.runningCount == 0 && scheduler.waitingCount == 0)
    }
}

/// The order queries ran in, shared with their tasks.
final class RunOrder: Sendable {
    private let list = Mutex<[String]>([])
    var names: [String] { list.withLock { $0 } }
    func append(_ name: String) { list.withLock { $0.append(name) } }
}
