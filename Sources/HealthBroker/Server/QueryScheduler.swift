import Synchronization

/// Slots for large queries: at most `BrokerLimits.largeQueriesRunning` in the broker and
/// `largeQueriesRunningPerApp` per app run at once; the others wait, and a freed slot goes to
/// the next app in turn (round-robin over the apps waiting, FIFO within one app). An app with
/// 32 queries queued therefore delays another app's query by at most one of its own, not 32.
///
/// Large queries do synchronous SQLite work on the shared pool's threads; keeping fewer of them
/// running than the pool has threads leaves a thread for everyone's cheap calls.
final class QueryScheduler: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var runningPerApp: [String: Int] = [:]
        var waiting: [String: [Waiter]] = [:]
        /// Apps with waiters, in the order they get their next turn.
        var turns: [String] = []
        var nextID: UInt64 = 0
    }

    private let total: Int
    private let perApp: Int
    private let state = Mutex(State())

    init(limits: BrokerLimits) {
        total = max(1, limits.largeQueriesRunning)
        perApp = max(1, limits.largeQueriesRunningPerApp)
    }

    /// Runs `body` in a slot, waiting for one first. A cancelled wait throws `CancellationError`.
    func run<T: Sendable>(app: String, _ body: () async throws -> T) async throws -> T {
        try await acquire(app: app)
        defer { release(app: app) }
        return try await body()
    }

    private func acquire(app: String) async throws {
        let id: UInt64? = state.withLock { state in
            if state.running < total, state.runningPerApp[app, default: 0] < perApp {
                state.running += 1
                state.runningPerApp[app, default: 0] += 1
                return nil
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiting[app, default: []].append(Waiter(id: id, continuation: continuation))
                    if !state.turns.contains(app) { state.turns.append(app) }
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.waiting[app]?.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.waiting[app]?.remove(at: index)
                if state.waiting[app]?.isEmpty == true {
                    state.waiting[app] = nil
                    state.turns.removeAll { $0 == app }
                }
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func release(app: String) {
        let admitted: [Waiter] = state.withLock { state in
            state.running -= 1
            let left = state.runningPerApp[app, default: 1] - 1
            state.runningPerApp[app] = left > 0 ? left : nil
            var admitted: [Waiter] = []
            // Give free slots to the apps in turn order, skipping those at their own limit.
            var index = 0
            while state.running < total, index < state.turns.count {
                let next = state.turns[index]
                guard state.runningPerApp[next, default: 0] < perApp, var queue = state.waiting[next], !queue.isEmpty else {
                    index += 1
                    continue
                }
                admitted.append(queue.removeFirst())
                state.running += 1
                state.runningPerApp[next, default: 0] += 1
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
        for waiter in admitted { waiter.continuation.resume() }
    }
}
