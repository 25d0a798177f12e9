import Foundation
@testable import HealthBroker
import HealthWire
import Synchronization
import Testing

/// A large query waiting for its client parks: its broker-wide slot goes to the next app, its
/// app's slot stays held, it takes a slot back in turn, and past `largeQueriesParked` the query
/// parked longest is evicted. Every step the scheduler takes under its lock, so each check below
/// reads settled state, no timing.
@Suite(.timeLimit(.minutes(10))) struct QuerySchedulerParkingTests {
    static func scheduler(parked: Int = 2) -> QueryScheduler {
        var limits = BrokerLimits()
        limits.largeQueriesRunning = 1
        limits.largeQueriesRunningPerApp = 1
        limits.largeQueriesParked = parked
        return QueryScheduler(limits: limits)
    }

    /// Holds a slot for app `app` until `release` is finished; hands the slot out once it runs.
    static func hold(_ scheduler: QueryScheduler, app: String, until release: AsyncStream<Void>)
        async throws -> (Task<Void, any Error>, QuerySlot) {
        let (slots, found) = AsyncStream<QuerySlot>.makeStream()
        let task = Task {
            try await scheduler.run(app: app) { (slot: QuerySlot) in
                found.yield(slot)
                for await _ in release {}
            }
        }
        var iterator = slots.makeAsyncIterator()
        let slot = await iterator.next()
        return (task, try #require(slot))
    }

    /// `unpark(goingOn:)` from a thread of its own, as the streaming query calls it.
    static func unparkOffThePool(_ slot: QuerySlot) async -> Result<Void, any Error> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { try slot.unpark(goingOn: true) }) }.start()
        }
    }

    @Test func aParkedQueryGivesItsSlotToAnotherApp() async throws {
        let scheduler = Self.scheduler()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (holder, slot) = try await Self.hold(scheduler, app: "A", until: gate)
        slot.park(interrupt: {})
        #expect(scheduler.runningCount == 0)
        // Without the park this waits for A, which waits for its client: forever.
        try await scheduler.run(app: "B") {}
        try slot.unpark(goingOn: true)
        #expect(scheduler.runningCount == 1 && scheduler.parkedCount == 0)
        open.finish()
        try await holder.value
        #expect(scheduler.runningCount == 0)
    }

    @Test func aParkedQueryKeepsItsAppsSlot() async throws {
        let scheduler = Self.scheduler()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (holder, slot) = try await Self.hold(scheduler, app: "A", until: gate)
        let ranSecond = Mutex(false)
        let second = Task { try await scheduler.run(app: "A") { ranSecond.withLock { $0 = true } } }
        while scheduler.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
        slot.park(interrupt: {})
        // B is admitted at once; A's second query still waits, since A's own slot is held.
        try await scheduler.run(app: "B") {}
        #expect(scheduler.waitingCount == 1)
        #expect(!ranSecond.withLock { $0 })
        try slot.unpark(goingOn: true)
        open.finish()
        try await holder.value
        try await second.value
        #expect(ranSecond.withLock { $0 })
    }

    @Test func aParkedQueryTakesItsSlotBackInTurn() async throws {
        let scheduler = Self.scheduler()
        let (gateA, openA) = AsyncStream<Void>.makeStream()
        let (holderA, slotA) = try await Self.hold(scheduler, app: "A", until: gateA)
        slotA.park(interrupt: {})
        let (gateB, openB) = AsyncStream<Void>.makeStream()
        let (holderB, _) = try await Self.hold(scheduler, app: "B", until: gateB)
        // A's client read: A queues for the slot B holds, still counted as parked meanwhile.
        let retaken = Task { await Self.unparkOffThePool(slotA) }
        while scheduler.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(scheduler.runningCount == 1 && scheduler.parkedCount == 1)
        openB.finish()
        try await holderB.value
        try await retaken.value.get()
        #expect(scheduler.runningCount == 1 && scheduler.parkedCount == 0)
        openA.finish()
        try await holderA.value
        #expect(scheduler.runningCount == 0 && scheduler.waitingCount == 0)
    }

    @Test func pastTheLimitTheQueryParkedLongestIsEvicted() async throws {
        let scheduler = Self.scheduler(parked: 1)
        let (gateA, openA) = AsyncStream<Void>.makeStream()
        let (holderA, slotA) = try await Self.hold(scheduler, app: "A", until: gateA)
        let interrupted = Mutex(false)
        slotA.park { interrupted.withLock { $0 = true } }
        let (gateB, openB) = AsyncStream<Void>.makeStream()
        let (holderB, slotB) = try await Self.hold(scheduler, app: "B", until: gateB)
        slotB.park(interrupt: {})
        #expect(interrupted.withLock { $0 }, "the query parked longest was not woken")
        let status = #expect(throws: RPCStatus.self) { try slotA.unpark(goingOn: true) }
        #expect(status?.code == .resourceExhausted)
        #expect(status?.message.contains("at most 1 large queries may wait") == true, "\(String(describing: status))")
        try slotB.unpark(goingOn: true)
        openA.finish()
        openB.finish()
        try await holderA.value
        try await holderB.value
        // Every slot came back: the evicted query's was not released twice, nor kept.
        #expect(scheduler.runningCount == 0 && scheduler.parkedCount == 0 && scheduler.waitingCount == 0)
        try await scheduler.run(app: "C") {}
    }

    @Test func anEvictionReachesAQueryWaitingForItsSlotBack() async throws {
        let scheduler = Self.scheduler(parked: 1)
        let (gateA, openA) = AsyncStream<Void>.makeStream()
        let (holderA, slotA) = try await Self.hold(scheduler, app: "A", until: gateA)
        slotA.park(interrupt: {})
        let (gateB, openB) = AsyncStream<Void>.makeStream()
        let (holderB, slotB) = try await Self.hold(scheduler, app: "B", until: gateB)
        let retaken = Task { await Self.unparkOffThePool(slotA) }
        while scheduler.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
        slotB.park(interrupt: {})  // evicts A, which waits for the slot B just gave back
        let outcome = await retaken.value
        #expect((try? outcome.get()) == nil, "A was admitted instead of evicted")
        try slotB.unpark(goingOn: true)
        openA.finish()
        openB.finish()
        try await holderA.value
        try await holderB.value
        #expect(scheduler.runningCount == 0 && scheduler.parkedCount == 0 && scheduler.waitingCount == 0)
    }

    @Test func aQueryEndingWhileParkedFreesOnlyItsAppsSlot() async throws {
        let scheduler = Self.scheduler()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (holder, slot) = try await Self.hold(scheduler, app: "A", until: gate)
        slot.park(interrupt: {})
        try slot.unpark(goingOn: false)  // the client left: the query ends without its slot
        open.finish()
        try await holder.value
        #expect(scheduler.runningCount == 0 && scheduler.parkedCount == 0)
        try await scheduler.run(app: "A") {}
    }

    @Test func theStoreClosingEndsEveryParkedQuery() async throws {
        let scheduler = Self.scheduler()
        let (gateA, openA) = AsyncStream<Void>.makeStream()
        let (holderA, slotA) = try await Self.hold(scheduler, app: "A", until: gateA)
        let interrupted = Mutex(0)
        slotA.park { interrupted.withLock { $0 += 1 } }
        scheduler.storeClosing(true)
        #expect(interrupted.withLock { $0 } == 1)
        let status = #expect(throws: RPCStatus.self) { try slotA.unpark(goingOn: true) }
        #expect(status?.healthKitCode == .errorDatabaseInaccessible, "\(String(describing: status))")
        openA.finish()
        try await holderA.value
        #expect(scheduler.runningCount == 0 && scheduler.parkedCount == 0 && scheduler.waitingCount == 0)
    }

    /// A query still producing when a lock's drain began parks only afterwards: it must end at
    /// once too, or it holds the drain until its client reads or its timeout (a lock failed after
    /// its 30 s drain this way, StalledClientEndToEndTests). Once the drain is over, parking is
    /// back to normal.
    @Test func aQueryParkingWhileTheStoreClosesEndsAtOnce() async throws {
        let scheduler = Self.scheduler()
        let (gateA, openA) = AsyncStream<Void>.makeStream()
        let (holderA, slotA) = try await Self.hold(scheduler, app: "A", until: gateA)
        scheduler.storeClosing(true)
        let interrupted = Mutex(0)
        slotA.park { interrupted.withLock { $0 += 1 } }
        #expect(interrupted.withLock { $0 } == 1, "parked during the drain and left waiting")
        let status = #expect(throws: RPCStatus.self) { try slotA.unpark(goingOn: true) }
        #expect(status?.healthKitCode == .errorDatabaseInaccessible, "\(String(describing: status))")
        openA.finish()
        try await holderA.value

        scheduler.storeClosing(false)
        let (gateB, openB) = AsyncStream<Void>.makeStream()
        let (holderB, slotB) = try await Self.hold(scheduler, app: "B", until: gateB)
        slotB.park { interrupted.withLock { $0 += 1 } }
        #expect(interrupted.withLock { $0 } == 1 && scheduler.parkedCount == 1, "a park after the drain ended at once")
        try await #require(Self.unparkOffThePool(slotB).get())
        openB.finish()
        try await holderB.value
        #expect(scheduler.runningCount == 0 && scheduler.parkedCount == 0 && scheduler.waitingCount == 0)
    }
}
