import Foundation
import HealthWire
import HealthIPC
@testable import HealthBroker
import Synchronization
import Testing

/// The broker-wide bound on wake-up checks (`CheckPool`): a fixed number of workers, taken
/// round-robin by app, one check per app at a time; a waiting check leaves the queue when
/// cancelled or when a lock or key change drains the store.
@Suite(.timeLimit(.minutes(10))) struct CheckPoolTests {
    /// A check that runs until the test opens it, recording when it began and ended.
    final class Held: Sendable {
        let name: String
        private let open = DispatchSemaphore(value: 0)
        init(_ name: String) { self.name = name }
        func release() { open.signal() }

        func run(on pool: CheckPool, app: String?, _ order: RunOrder, tally: Tally? = nil) async throws {
            try await pool.run(app: app) { worker in
                try await worker.run { [self] in
                    tally?.began()
                    order.append(name)
                    open.wait()
                    tally?.ended()
                }
            }
        }
    }

    /// Checks running now, and the most at once.
    final class Tally: Sendable {
        private let counts = Mutex((live: 0, peak: 0))
        func began() { counts.withLock { $0.live += 1; $0.peak = max($0.peak, $0.live) } }
        func ended() { counts.withLock { $0.live -= 1 } }
        var live: Int { counts.withLock { $0.live } }
        var peak: Int { counts.withLock { $0.peak } }
    }

    /// One app's queued checks delay another app's one check by at most the one running: with
    /// one worker, A's first check runs; A queues two more, then B two and C one. Each check is
    /// released once it runs: B's and C's first checks run before A's second.
    @Test func anotherAppsCheckWaitsForAtMostTheOneRunning() async throws {
        let pool = CheckPool(workers: 1)
        let order = RunOrder()
        let first = Held("A1")
        let holder = Task { try await first.run(on: pool, app: "A", order) }
        try #require(try await Self.eventually { order.names == ["A1"] })
        var queued: [Held] = []
        var tasks: [Task<Void, any Error>] = []
        for name in ["A2", "A3", "B1", "B2", "C1"] {
            let check = Held(name)
            queued.append(check)
            tasks.append(Task { try await check.run(on: pool, app: String(name.prefix(1)), order) })
            try #require(try await Self.eventually { pool.counts.waiting == queued.count })
        }
        first.release()
        try await holder.value
        var ran = ["A1"]
        while ran.count < 6 {
            try #require(try await Self.eventually { order.names.count > ran.count }, "stuck after \(order.names)")
            let running = order.names[ran.count]
            ran.append(running)
            queued.first { $0.name == running }?.release()
        }
        for task in tasks { try await task.value }
        // A's second check comes after every app that began to wait while A's first ran; B's
        // second after A's second.
        #expect(order.names == ["A1", "B1", "C1", "A2", "B2", "A3"], "\(order.names)")
        #expect(pool.counts.running == 0 && pool.counts.waiting == 0)
    }

    /// However many apps' checks wait, no more than the pool's workers run at once, an app runs
    /// one at a time even with a worker free, and the workers are the pool's threads — not a
    /// thread per check.
    @Test func checksRunAtMostOnePerWorkerOnThePoolsThreads() async throws {
        let pool = CheckPool(workers: 2)
        let order = RunOrder()
        let tally = Tally()
        // A's first check holds a worker; A's second waits although the other worker is free.
        let a1 = Held("A1"), a2 = Held("A2")
        let aTasks = [Task { try await a1.run(on: pool, app: "A", order, tally: tally) }]
        try #require(try await Self.eventually { order.names == ["A1"] })
        let a2Task = Task { try await a2.run(on: pool, app: "A", order, tally: tally) }
        try #require(try await Self.eventually { pool.counts.waiting == 1 })
        #expect(pool.counts.running == 1, "A's second check ran beside its first")
        // Twelve more apps, three checks each.
        let others = (0..<12).flatMap { app in (0..<3).map { Held("app\(app)-\($0)") } }
        let otherTasks = others.map { check in
            Task { try await check.run(on: pool, app: String(check.name.split(separator: "-")[0]), order, tally: tally) }
        }
        try #require(try await Self.eventually { pool.counts.running + pool.counts.waiting == 2 + others.count })
        #expect(pool.counts.running == 2)
        a1.release()
        // Release whatever runs until everything ran.
        let all = [a1, a2] + others
        while order.names.count < all.count || tally.live > 0 {
            for check in all where order.names.contains(check.name) { check.release() }
            try await Task.sleep(for: .milliseconds(5))
            if order.names.count == all.count { for check in all { check.release() } }
        }
        for task in aTasks + [a2Task] + otherTasks { try await task.value }
        #expect(tally.peak == 2, "checks running at once: \(tally.peak)")
        #expect(pool.threadsStarted <= 2, "threads started for \(all.count) checks: \(pool.threadsStarted)")
        #expect(pool.counts.running == 0 && pool.counts.waiting == 0)
    }

    /// A cancelled wait leaves the queue: the app's place in the ring goes to the next app, and
    /// the pool's counts return to nothing.
    @Test func aCancelledWaitLeavesTheQueue() async throws {
        let pool = CheckPool(workers: 1)
        let order = RunOrder()
        let holder = Held("A1")
        let holding = Task { try await holder.run(on: pool, app: "A", order) }
        try #require(try await Self.eventually { order.names == ["A1"] })
        let cancelled = Held("B1")
        let waiter = Task { try await cancelled.run(on: pool, app: "B", order) }
        try #require(try await Self.eventually { pool.counts.waiting == 1 })
        let next = Held("C1")
        let nextTask = Task { try await next.run(on: pool, app: "C", order) }
        try #require(try await Self.eventually { pool.counts.waiting == 2 })
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(pool.counts.waiting == 1)
        holder.release()
        try await holding.value
        try #require(try await Self.eventually { order.names == ["A1", "C1"] }, "\(order.names)")
        next.release()
        try await nextTask.value
        #expect(order.names == ["A1", "C1"])
        #expect(pool.counts.running == 0 && pool.counts.waiting == 0)
    }

    /// A lock or key change that starts draining the store ends every waiting check with the
    /// store-closed status, and every check that arrives until the drain ends; the running check
    /// is not touched here (its statement stops at the drain). After the drain, checks run again.
    @Test func aDrainEndsWaitingChecks() async throws {
        let pool = CheckPool(workers: 1)
        let order = RunOrder()
        let holder = Held("A1")
        let holding = Task { try await holder.run(on: pool, app: "A", order) }
        try #require(try await Self.eventually { order.names == ["A1"] })
        let waiters = ["A2", "B1", "C1"].map { name in
            Task { try await Held(name).run(on: pool, app: String(name.prefix(1)), order) }
        }
        try #require(try await Self.eventually { pool.counts.waiting == 3 })
        pool.storeClosing(true)
        for waiter in waiters {
            await #expect(throws: RPCStatus.self) { try await waiter.value }
        }
        #expect(pool.counts.waiting == 0)
        // One arriving during the drain ends at once, without running.
        await #expect(throws: RPCStatus.self) { try await Held("D1").run(on: pool, app: "D", order) }
        holder.release()
        try await holding.value
        pool.storeClosing(false)
        try await pool.run(app: "D") { worker in try await worker.run { order.append("D2") } }
        #expect(order.names == ["A1", "D2"])
        #expect(pool.counts.running == 0 && pool.counts.waiting == 0)
    }

    /// Work for no app's call has a queue of its own in the ring, bounded like an app's.
    @Test func workForNoAppIsBoundedToo() async throws {
        let pool = CheckPool(workers: 1)
        let order = RunOrder()
        let holder = Held("A1")
        let holding = Task { try await holder.run(on: pool, app: "A", order) }
        try #require(try await Self.eventually { order.names == ["A1"] })
        let broker = Task { try await pool.run(app: nil) { worker in try await worker.run { order.append("broker") } } }
        try #require(try await Self.eventually { pool.counts.waiting == 1 })
        #expect(order.names == ["A1"])
        holder.release()
        try await holding.value
        try await broker.value
        #expect(order.names == ["A1", "broker"])
    }

    /// Polls `condition` until it holds (true) or a 60 s hang guard passes (false).
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let until = Date().addingTimeInterval(60)
        while !condition() {
            if Date() > until { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
