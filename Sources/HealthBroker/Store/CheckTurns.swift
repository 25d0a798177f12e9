import Synchronization

/// At most one wake-up check per app at a time (`StoreHandle.withDatabaseToCheck`): an app's
/// checks wait for each other, in the order they came, and never for another app's.
///
/// A check evaluates the app's predicate over what was committed since its query's cursor. Each
/// app may hold 24 long-running queries of up to 64 descriptors each, and one save of its own
/// woke them all at once: their checks took every thread of Swift's cooperative pool (two on two
/// cores), and every other app's call and `healthctl` waited 81–83 s (s20 availability review,
/// finding 1). With checks off the pool (`BlockingWork`), one CPU bound per check
/// (`StatementBudget.forCheck`) and one check per app at a time, an app's checks cost it its own
/// turn, one budget after another. What the app can infer from its own queue is what its own
/// queries cost; checks are not bounded broker-wide (SECURITY.md "Open, known").
final class CheckTurns: Sendable {
    private struct Waiter {
        let id: UInt64
        let resume: @Sendable (Result<Void, any Error>) -> Void
    }

    private struct State {
        var checking: Set<String> = []
        var waiting: [String: [Waiter]] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Runs `check` in `app`'s turn; at once for no app (work for no app's call). A cancelled wait
    /// throws `CancellationError`.
    func run<T: Sendable>(app: String?, _ check: () async throws -> T) async throws -> T {
        guard let app else { return try await check() }
        try await take(app)
        defer { give(app) }
        return try await check()
    }

    /// For tests: the apps with a check running.
    var checkingCount: Int { state.withLock { $0.checking.count } }

    private func take(_ app: String) async throws {
        let (id, admitted): (UInt64, Bool) = state.withLock { state in
            defer { state.nextID += 1 }
            return (state.nextID, state.checking.insert(app).inserted)
        }
        if admitted { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    // Looked at again under the lock that queues the waiter: a turn given back
                    // between the two looks went to nobody.
                    if state.checking.insert(app).inserted { return .success(()) }
                    state.waiting[app, default: []].append(Waiter(id: id) { continuation.resume(with: $0) })
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.waiting[app]?.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.waiting[app]?.remove(at: index)
                if state.waiting[app]?.isEmpty == true { state.waiting[app] = nil }
                return waiter
            }
            waiter?.resume(.failure(CancellationError()))
        }
    }

    /// The app's turn goes to its next waiting check, or is given up.
    private func give(_ app: String) {
        let next: Waiter? = state.withLock { state in
            guard var queue = state.waiting[app], !queue.isEmpty else {
                state.checking.remove(app)
                return nil
            }
            let next = queue.removeFirst()
            state.waiting[app] = queue.isEmpty ? nil : queue
            return next
        }
        next?.resume(.success(()))
    }
}
