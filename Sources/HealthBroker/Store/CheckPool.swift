import HealthWire
import Synchronization

/// The broker-wide bound on wake-up checks (`StoreHandle.withDatabaseToCheck`): a fixed number of
/// workers (`BrokerLimits.checkWorkers`), each a long-lived thread (`CheckWorker`), taken in turn
/// round-robin by app, and at most one check per app at a time.
///
/// Why: a check evaluates the app's predicate over what was committed since its query's cursor,
/// under one CPU budget (`StatementBudget.forCheck`, 10 s). Each app may hold 24 long-running
/// queries of up to 64 descriptors, and one commit wakes them all. With a thread per check and
/// only one check per app at a time (session 20), N apps still ran N checks at once: N threads and
/// N store readers — readers cheap calls also need — and N cores' worth of CPU. Now at most
/// `checkWorkers` checks run, which `BrokerLimits.storeReaders` counts beside the readers kept for
/// cheap calls.
///
/// Fairness: when a worker is free, it goes to the app that has waited longest for a turn, never
/// to an app with a check already running; an app whose check ends queues its next check behind
/// every app that began to wait meanwhile (`State.dispatch`). So one app's 24 queued checks delay
/// another app's one check by at most the one running; with K other apps waiting, a check waits
/// for at most one check of each, spread over the workers. What an app can infer from the wait is how many apps' checks
/// run — which the CPU already shows — not what any of them may see.
///
/// A lock or key change that starts draining the store ends the checks waiting here (and those
/// that arrive while it drains) with `StoreHandle.closedUnderAnswer`, as running checks end when
/// their statement stops at the drain: none waits for its turn to then wait at a closed gate.
final class CheckPool: Sendable {
    /// A worker lent to one check of one app, given back by `give`.
    struct Turn: Sendable {
        let app: String
        let worker: Int
    }

    private struct Waiter {
        let id: UInt64
        let resume: @Sendable (Result<Int, any Error>) -> Void
    }

    private struct State {
        var freeWorkers: [Int]
        /// Apps with a check running.
        var checking: Set<String> = []
        /// Each app's waiting checks, in the order they came.
        var waiting: [String: [Waiter]] = [:]
        /// Apps with a waiting check, the one waiting longest for a turn first.
        var ring: [String] = []
        var nextID: UInt64 = 0
        var storeClosing = false

        /// Hands free workers to the apps at the head of the ring: the waiters to resume, each
        /// with its worker. An app is in the ring exactly while it has a waiting check and none
        /// running; it joins at the end when its first check queues, or when its running check
        /// ends and another of its checks waits — so its later checks queue behind every app
        /// that began to wait meanwhile.
        mutating func dispatch() -> [(Waiter, Int)] {
            var handed: [(Waiter, Int)] = []
            while !freeWorkers.isEmpty, !ring.isEmpty {
                let app = ring.removeFirst()
                guard !checking.contains(app), var queue = waiting[app], !queue.isEmpty else { continue }
                let waiter = queue.removeFirst()
                waiting[app] = queue.isEmpty ? nil : queue
                checking.insert(app)
                handed.append((waiter, freeWorkers.removeLast()))
            }
            return handed
        }

        mutating func removeWaiter(app: String, id: UInt64) -> Waiter? {
            guard var queue = waiting[app], let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = queue.remove(at: index)
            if queue.isEmpty {
                waiting[app] = nil
                ring.removeAll { $0 == app }
            } else {
                waiting[app] = queue
            }
            return waiter
        }
    }

    /// The work done for no app's call (the broker's own): a queue of its own in the ring.
    static let brokerKey = "\u{0}healthd"

    private let state: Mutex<State>
    let workers: [CheckWorker]

    init(workers count: Int) {
        let count = max(1, count)
        workers = (0..<count).map { _ in CheckWorker() }
        state = Mutex(State(freeWorkers: Array((0..<count).reversed())))
    }

    /// Runs `check` in a turn of `app` (the broker's own queue for nil), handing it the worker
    /// it may run store work on. A cancelled wait throws `CancellationError`; a wait the store's
    /// drain ends throws `StoreHandle.closedUnderAnswer`'s status.
    func run<T: Sendable>(app: String?, _ check: (CheckWorker) async throws -> T) async throws -> T {
        let turn = try await take(app ?? Self.brokerKey)
        defer { give(turn) }
        return try await check(workers[turn.worker])
    }

    /// For tests and `healthctl status`-style counts: checks running and waiting now.
    var counts: (running: Int, waiting: Int) {
        state.withLock { state in (state.checking.count, state.waiting.values.reduce(0) { $0 + $1.count }) }
    }

    /// Threads the workers started so far (each ends after a while idle and starts on next use).
    var threadsStarted: Int { workers.reduce(0) { $0 + $1.threadsStarted } }

    static let closedStatus = RPCStatus(StoreHandle.closedUnderAnswer)

    func take(_ app: String) async throws -> Turn {
        let (id, now): (UInt64, Result<Int, any Error>?) = state.withLock { state in
            defer { state.nextID += 1 }
            if state.storeClosing { return (state.nextID, .failure(Self.closedStatus)) }
            // A free worker means no app that could take it is waiting (`dispatch` ran at every
            // give): the check starts at once unless its app has one running.
            if !state.checking.contains(app), let worker = state.freeWorkers.popLast() {
                state.checking.insert(app)
                return (state.nextID, .success(worker))
            }
            return (state.nextID, nil)
        }
        if let now { return Turn(app: app, worker: try now.get()) }
        let worker = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
                let handed: [(Waiter, Int)]? = state.withLock { state in
                    if Task.isCancelled || state.storeClosing { return nil }
                    state.waiting[app, default: []].append(Waiter(id: id) { continuation.resume(with: $0) })
                    if !state.checking.contains(app), !state.ring.contains(app) { state.ring.append(app) }
                    // Looked at again under the lock that queued the waiter: a worker given back
                    // between the two looks went to nobody.
                    return state.dispatch()
                }
                guard let handed else {
                    let closing = state.withLock { $0.storeClosing }
                    continuation.resume(throwing: closing ? Self.closedStatus : CancellationError())
                    return
                }
                for (waiter, worker) in handed { waiter.resume(.success(worker)) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.removeWaiter(app: app, id: id) }
            waiter?.resume(.failure(CancellationError()))
        }
        return Turn(app: app, worker: worker)
    }

    /// The turn's worker goes to the app waiting longest (`dispatch`).
    func give(_ turn: Turn) {
        let handed = state.withLock { state in
            state.checking.remove(turn.app)
            state.freeWorkers.append(turn.worker)
            if state.waiting[turn.app]?.isEmpty == false { state.ring.append(turn.app) }
            return state.dispatch()
        }
        for (waiter, worker) in handed { waiter.resume(.success(worker)) }
    }

    /// A lock or key change starts (`closing`) or stops draining the store: from the start, every
    /// waiting check ends, and so does every check that arrives until the drain is over.
    func storeClosing(_ closing: Bool) {
        let ended: [Waiter] = state.withLock { state in
            state.storeClosing = closing
            guard closing else { return [] }
            let all = state.waiting.values.flatMap { $0 }
            state.waiting = [:]
            state.ring = []
            return all
        }
        for waiter in ended { waiter.resume(.failure(Self.closedStatus)) }
    }
}
