import HealthIPC
import HealthModel
import HealthWire
import Synchronization

/// Slots for large queries: at most `BrokerLimits.largeQueriesRunning` in the broker and
/// `largeQueriesRunningPerApp` per app run at once; the others wait, and a freed slot goes to
/// the next app in turn (round-robin over the apps waiting, FIFO within one app). An app with
/// 32 queries queued therefore delays another app's query by at most one of its own, not 32.
///
/// A query never holds a broker-wide slot while it waits for its own client to read
/// (`QuerySlot`, the `PeerWaitHooks` of its call): it parks, giving the slot to the next app in
/// turn, and queues for one again, in turn, before it produces its next batch. Its app's own slot
/// stays held, so that app's other large queries keep waiting. A parked query still holds its
/// store reader and thread, so at most `BrokerLimits.largeQueriesParked` park at once; one more
/// evicts the query parked longest, which ends with RESOURCE_EXHAUSTED naming the limit.
final class QueryScheduler: Sendable {
    fileprivate struct Waiter {
        let id: UInt64
        /// A parked query taking its slot back: its app's slot is already counted.
        let retaking: Bool
        let resume: @Sendable (Result<Void, any Error>) -> Void
    }

    fileprivate struct Parked {
        let id: UInt64
        let app: String
        let interrupt: @Sendable () -> Void
    }

    fileprivate struct State {
        var running = 0
        var runningPerApp: [String: Int] = [:]
        var waiting: [String: [Waiter]] = [:]
        /// Apps with waiters, in the order they get their next turn.
        var turns: [String] = []
        var nextID: UInt64 = 0
        /// Queries waiting for their clients (or for their slot back after that), longest first.
        var parked: [Parked] = []
        /// Parked queries evicted before they unparked, with the status they end with.
        var evicted: [UInt64: RPCStatus] = [:]
        /// Queries that hold no broker-wide slot and are not parked: evicted, or ended while
        /// parked (their stream ends without producing more).
        var withoutSlot: Set<UInt64> = []
        /// A lock or key change is draining the store: a query that parks now ends at once.
        var storeClosing = false
    }

    private let total: Int
    private let perApp: Int
    private let parkedLimit: Int
    private let state = Mutex(State())
    /// Tests only: runs after a query found no free slot and before it queues for one, where a
    /// slot freed meanwhile must not be missed (`QuerySchedulerTests.aSlotFreedBeforeTheWaiterQueuesIsTaken`).
    private let beforeQueueing: (@Sendable () async -> Void)?

    init(limits: BrokerLimits, beforeQueueing: (@Sendable () async -> Void)? = nil) {
        total = max(1, limits.largeQueriesRunning)
        perApp = max(1, limits.largeQueriesRunningPerApp)
        parkedLimit = max(1, limits.largeQueriesParked)
        self.beforeQueueing = beforeQueueing
    }

    /// What an evicted query ends with: the limit it hit, and what the app can do.
    var evictedStatus: RPCStatus {
        BrokerLimits.exhausted("at most \(parkedLimit) large queries may wait for their apps to read their results at once; "
            + "this one waited longest (read a query's results as they arrive)")
    }

    /// Runs `body` in a slot, waiting for one first. A cancelled wait throws `CancellationError`.
    func run<T: Sendable>(app: String, _ body: () async throws -> T) async throws -> T {
        try await run(app: app) { _ in try await body() }
    }

    /// `run` giving `body` its slot, to park while it waits for its client (`QuerySlot`).
    func run<T: Sendable>(app: String, _ body: (QuerySlot) async throws -> T) async throws -> T {
        let slot = try await acquire(app: app)
        defer { release(slot) }
        return try await body(slot)
    }

    /// For tests: queries parked, broker-wide slots taken, and queries waiting for one.
    var parkedCount: Int { state.withLock { $0.parked.count } }
    var runningCount: Int { state.withLock { $0.running } }
    var waitingCount: Int { state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } } }

    private func acquire(app: String) async throws -> QuerySlot {
        let (id, admitted): (UInt64, Bool) = state.withLock { state in
            defer { state.nextID += 1 }
            return (state.nextID, state.takeSlot(for: app, total: total, perApp: perApp))
        }
        let slot = QuerySlot(scheduler: self, app: app, id: id)
        if admitted { return slot }
        await beforeQueueing?()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    // Looked at again under the lock that queues the waiter. The look above was
                    // in another critical section: a slot freed between the two was released to
                    // nobody (`admitNext` found no waiter), and a waiter queued after that waited
                    // for the next release — forever, for an app whose only other query was the
                    // one that just ended (stack-bench's query rounds hung this way).
                    if state.takeSlot(for: app, total: total, perApp: perApp) { return .success(()) }
                    let waiter = Waiter(id: id, retaking: false) { continuation.resume(with: $0) }
                    state.waiting[app, default: []].append(waiter)
                    if !state.turns.contains(app) { state.turns.append(app) }
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.removeWaiter(id, app: app) }
            waiter?.resume(.failure(CancellationError()))
        }
        return slot
    }

    /// The query's slot back: its broker-wide slot unless it is parked (or was evicted), and its
    /// app's slot always.
    private func release(_ slot: QuerySlot) {
        let admitted: [Waiter] = state.withLock { state in
            if let index = state.parked.firstIndex(where: { $0.id == slot.id }) {
                state.parked.remove(at: index)
                _ = state.removeWaiter(slot.id, app: slot.app)
            } else if !state.withoutSlot.contains(slot.id) {
                state.running -= 1
            }
            state.evicted[slot.id] = nil
            state.withoutSlot.remove(slot.id)
            let left = state.runningPerApp[slot.app, default: 1] - 1
            state.runningPerApp[slot.app] = left > 0 ? left : nil
            return admitNext(&state)
        }
        for waiter in admitted { waiter.resume(.success(())) }
    }

    /// Parks `slot`: its broker-wide slot goes to the next app in turn; past the limit, the
    /// query parked longest is evicted. While the store is closing, it ends at once (its
    /// `interrupt` runs before this returns).
    func park(_ slot: QuerySlot, interrupt: @escaping @Sendable () -> Void) {
        let overLimit = evictedStatus
        let (admitted, evicted, retakers, status): ([Waiter], [Parked], [Waiter], RPCStatus) = state.withLock { state in
            state.running -= 1
            state.parked.append(Parked(id: slot.id, app: slot.app, interrupt: interrupt))
            let status = state.storeClosing ? Self.storeClosingStatus : overLimit
            let (evicted, retakers) = state.evict(count: state.storeClosing ? state.parked.count : state.parked.count - parkedLimit,
                                                  with: status)
            return (admitNext(&state), evicted, retakers, status)
        }
        for waiter in admitted { waiter.resume(.success(())) }
        // Woken wherever it waits: for its slot back, or for its client.
        for waiter in retakers { waiter.resume(.failure(status)) }
        for parked in evicted { parked.interrupt() }
    }

    /// A lock or key change starts (`closing`) or stops draining the store. From the start,
    /// every parked query — and every query that parks until the drain is over — ends with
    /// `storeClosingStatus` rather than hold the drain until its client reads or its timeout:
    /// a query still producing when the drain began parks only afterwards (a lock then failed
    /// after its 30 s drain, StalledClientEndToEndTests).
    func storeClosing(_ closing: Bool) {
        let (evicted, retakers) = state.withLock { state in
            state.storeClosing = closing
            return closing ? state.evict(count: state.parked.count, with: Self.storeClosingStatus) : ([], [])
        }
        for waiter in retakers { waiter.resume(.failure(Self.storeClosingStatus)) }
        for parked in evicted { parked.interrupt() }
    }

    /// What a query parked when the drain began ends with: what every answer the store closes
    /// under ends with (`StoreHandle.closedUnderAnswer`).
    static let storeClosingStatus = RPCStatus(StoreHandle.closedUnderAnswer)

    /// Ends `slot`'s park; `resume` tells the outcome (at once, or once a slot is free):
    /// `evictedStatus` if the query was evicted. Going on, the query queues for a broker-wide
    /// slot, in turn, first among its own app's queries (it holds the app's slot).
    func unpark(_ slot: QuerySlot, goingOn: Bool, resume: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let (now, admitted): (Result<Void, any Error>?, [Waiter]) = state.withLock { state in
            if let status = state.evicted[slot.id] { return (.failure(status), []) }
            guard goingOn else {
                state.parked.removeAll { $0.id == slot.id }
                state.withoutSlot.insert(slot.id)
                return (.success(()), [])
            }
            // Stays parked (it keeps its reader) until admitted; then it counts as running.
            state.waiting[slot.app, default: []].insert(Waiter(id: slot.id, retaking: true, resume: resume), at: 0)
            if !state.turns.contains(slot.app) { state.turns.append(slot.app) }
            return (nil, admitNext(&state))
        }
        if let now { resume(now) }
        for waiter in admitted { waiter.resume(.success(())) }
    }

    /// Gives free broker-wide slots to the apps in turn order, skipping those at their own limit
    /// (a parked query retaking its slot is already counted in its app's).
    private func admitNext(_ state: inout State) -> [Waiter] {
        var admitted: [Waiter] = []
        var index = 0
        while state.running < total, index < state.turns.count {
            let next = state.turns[index]
            guard var queue = state.waiting[next], let first = queue.first,
                  first.retaking || state.runningPerApp[next, default: 0] < perApp else {
                index += 1
                continue
            }
            queue.removeFirst()
            admitted.append(first)
            state.running += 1
            if first.retaking {
                state.parked.removeAll { $0.id == first.id }
            } else {
                state.runningPerApp[next, default: 0] += 1
            }
            state.turns.remove(at: index)
            if queue.isEmpty {
                state.waiting[next] = nil
            } else {
                state.waiting[next] = queue
                state.turns.append(next)  // to the back: everyone else waiting goes first
            }
        }
        return admitted
    }
}

extension QueryScheduler.State {
    /// Takes a broker-wide slot and one of `app`'s if both are free. The one rule for a query
    /// that is not queued yet; `admitNext` gives freed slots to those that are.
    mutating func takeSlot(for app: String, total: Int, perApp: Int) -> Bool {
        guard running < total, runningPerApp[app, default: 0] < perApp else { return false }
        running += 1
        runningPerApp[app, default: 0] += 1
        return true
    }

    /// Evicts the `count` queries parked longest (none if `count` ≤ 0): each ends with `status`,
    /// and one waiting for its slot back leaves the queue under this lock, so no freed slot goes
    /// to it meanwhile. Returns them, and those waiters, to be woken outside the lock.
    mutating func evict(count: Int, with status: RPCStatus) -> ([QueryScheduler.Parked], [QueryScheduler.Waiter]) {
        var evicted: [QueryScheduler.Parked] = []
        var retakers: [QueryScheduler.Waiter] = []
        for _ in 0..<max(0, count) {
            let oldest = parked.removeFirst()
            self.evicted[oldest.id] = status
            withoutSlot.insert(oldest.id)
            if let waiter = removeWaiter(oldest.id, app: oldest.app) { retakers.append(waiter) }
            evicted.append(oldest)
        }
        return (evicted, retakers)
    }

    /// Takes the waiter `id` out of `app`'s queue (and `app` out of the turns when that empties it).
    mutating func removeWaiter(_ id: UInt64, app: String) -> QueryScheduler.Waiter? {
        guard let index = waiting[app]?.firstIndex(where: { $0.id == id }) else { return nil }
        let waiter = waiting[app]?.remove(at: index)
        if waiting[app]?.isEmpty == true {
            waiting[app] = nil
            turns.removeAll { $0 == app }
        }
        return waiter
    }
}
