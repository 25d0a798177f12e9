import Foundation
@testable import HealthBroker
import HealthWire
import Synchronization
import Testing

/// A large query whose client keeps reading takes turns with other apps' waiting queries after
/// each message it hands (`QueryScheduler.takeTurn`): the broker-wide slot goes round the apps
/// message by message instead of staying with one answer to its end; the same app's second
/// query takes no turn; at `largeQueriesAwaitingTurn` only queries awaiting their turn trade
/// places; a lock ends a query awaiting its turn. Each "query" below is a loop of messages in a
/// slot, recording the order its messages ran in: an order, never a time.
@Suite(.timeLimit(.minutes(10))) struct QuerySchedulerTurnTests {
    static func scheduler(awaitingTurn: Int = 2) -> QueryScheduler {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 1
        limits.largeQueriesRunningPerApp = 1
        limits.largeQueriesAwaitingTurn = awaitingTurn
        return QueryScheduler(limits: limits)
    }

    /// A query of `app` handing `messages` messages, taking its turn between two; the first one
    /// waits for `start` to finish before its first message (so the others can queue first).
    static func query(_ scheduler: QueryScheduler, app: String, messages: Int, order: RunOrder,
                      start: AsyncStream<Void>? = nil, mostAwaiting: Highest? = nil) -> Task<Void, any Error> {
        Task {
            try await scheduler.run(app: app) { (slot: QuerySlot) in
                if let start { for await _ in start {} }
                for message in 0..<messages {
                    order.append("\(app)\(message)")
                    mostAwaiting?.note(scheduler.awaitingTurnCount)
                    if message < messages - 1 { try await slot.takeTurnSuspending() }
                }
            }
        }
    }

    /// Polls `condition`; a hang guard, not a speed check: past 60 s the test fails instead of
    /// waiting for a state the scheduler never reaches (without turns, no query awaits its turn).
    static func waitUntil(_ condition: () -> Bool, _ what: String = "the scheduler's state",
                          sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let until = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < until else {
                Issue.record("never reached: \(what)", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Without turns, A's three messages ran before anyone else's: A0 A1 A2 B0 B1 B2 C0 C1 C2.
    @Test func theSlotGoesRoundTheAppsMessageByMessage() async throws {
        let scheduler = Self.scheduler()
        let order = RunOrder()
        let (start, go) = AsyncStream<Void>.makeStream()
        let first = Self.query(scheduler, app: "A", messages: 3, order: order, start: start)
        try await Self.waitUntil { scheduler.runningCount == 1 }
        let others = [Self.query(scheduler, app: "B", messages: 3, order: order),
                      Self.query(scheduler, app: "C", messages: 3, order: order)]
        try await Self.waitUntil { scheduler.waitingCount == 2 }
        go.finish()
        try await first.value
        for other in others { try await other.value }
        #expect(order.names == ["A0", "B0", "C0", "A1", "B1", "C1", "A2", "B2", "C2"], "ran in order \(order.names)")
        #expect(scheduler.runningCount == 0 && scheduler.waitingCount == 0 && scheduler.awaitingTurnCount == 0)
    }

    /// The same app's second query waits for the app's slot, not for the broker-wide one: the
    /// first query has no one to give its turn to, and its second query runs after it.
    @Test func theSameAppsSecondQueryTakesNoTurn() async throws {
        let scheduler = Self.scheduler()
        let order = RunOrder()
        let (start, go) = AsyncStream<Void>.makeStream()
        let first = Self.query(scheduler, app: "A", messages: 3, order: order, start: start)
        try await Self.waitUntil { scheduler.runningCount == 1 }
        let second = Self.query(scheduler, app: "A", messages: 1, order: order)
        try await Self.waitUntil { scheduler.waitingCount == 1 }
        go.finish()
        try await first.value
        try await second.value
        #expect(order.names == ["A0", "A1", "A2", "A0"], "ran in order \(order.names)")
        #expect(scheduler.awaitingTurnCount == 0)
    }

    /// With one query allowed to await its turn, A gives its turn to B; B may then give its turn
    /// only to A (they trade places, holding no reader more), not to C, which is new: C runs
    /// when A ends, and at no point did two queries await their turn.
    @Test func atTheLimitOnlyQueriesAwaitingTheirTurnTradePlaces() async throws {
        let scheduler = Self.scheduler(awaitingTurn: 1)
        let order = RunOrder()
        let most = Highest()
        let (start, go) = AsyncStream<Void>.makeStream()
        let first = Self.query(scheduler, app: "A", messages: 2, order: order, start: start, mostAwaiting: most)
        try await Self.waitUntil { scheduler.runningCount == 1 }
        let b = Self.query(scheduler, app: "B", messages: 2, order: order, mostAwaiting: most)
        try await Self.waitUntil { scheduler.waitingCount == 1 }
        let c = Self.query(scheduler, app: "C", messages: 1, order: order, mostAwaiting: most)
        try await Self.waitUntil { scheduler.waitingCount == 2 }
        go.finish()
        for task in [first, b, c] { try await task.value }
        #expect(order.names == ["A0", "B0", "A1", "C0", "B1"], "ran in order \(order.names)")
        #expect(most.value == 1)
        #expect(scheduler.runningCount == 0 && scheduler.waitingCount == 0 && scheduler.awaitingTurnCount == 0)
    }

    /// A lock or key change ends a query awaiting its turn (it holds a reader the drain waits
    /// for) with the status answers closed under a drain end with; while the store drains, no
    /// query gives its turn away; the slots are all free afterwards.
    @Test func aLockEndsAQueryAwaitingItsTurn() async throws {
        let scheduler = Self.scheduler()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (slots, found) = AsyncStream<QuerySlot>.makeStream()
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let a = Task {
            try await scheduler.run(app: "A") { (slot: QuerySlot) in
                found.yield(slot)
                for await _ in gate {}
                // From a thread of its own, as a query streaming from a store callback does.
                let result = await withCheckedContinuation { continuation in
                    Thread { continuation.resume(returning: Result { try slot.takeTurn() }) }.start()
                }
                outcome.withLock { $0 = result }
            }
        }
        var slotsIterator = slots.makeAsyncIterator()
        _ = try #require(await slotsIterator.next())
        let (holdB, releaseB) = AsyncStream<Void>.makeStream()
        let b = Task { try await scheduler.run(app: "B") { for await _ in holdB {} } }
        try await Self.waitUntil { scheduler.waitingCount == 1 }
        open.finish()
        try await Self.waitUntil({ scheduler.awaitingTurnCount == 1 }, "B runs, A awaits its turn")
        scheduler.storeClosing(true)
        try await a.value
        let ended = try #require(outcome.withLock { $0 })
        #expect(throws: RPCStatus.self) { try ended.get() }
        #expect(scheduler.awaitingTurnCount == 0 && scheduler.runningCount == 1)

        // While the drain lasts, a query with someone waiting keeps its slot.
        let c = Task { try await scheduler.run(app: "C") {} }
        try await Self.waitUntil { scheduler.waitingCount == 1 }
        let bSlot = QuerySlotProbe(scheduler: scheduler)
        #expect(!bSlot.turnWouldBeTaken)
        scheduler.storeClosing(false)
        releaseB.finish()
        try await b.value
        try await c.value
        #expect(scheduler.runningCount == 0 && scheduler.waitingCount == 0 && scheduler.awaitingTurnCount == 0)
    }
}

/// A slot the scheduler never admitted, to ask the turn rule about a running query while the
/// store drains (the rule looks at the waiting apps and the drain, not at this slot's state).
struct QuerySlotProbe {
    let scheduler: QueryScheduler
    var turnWouldBeTaken: Bool { scheduler.turnDue(QuerySlot(scheduler: scheduler, app: "B", id: .max)) }
}

/// The highest count seen, shared with the queries' tasks.
final class Highest: Sendable {
    private let highest = Mutex(0)
    var value: Int { highest.withLock { $0 } }
    func note(_ count: Int) { highest.withLock { $0 = max($0, count) } }
}
