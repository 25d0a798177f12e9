import Synchronization

/// Tells long-running calls that the store locked, so they end (CallDispatcher): one signal for
/// every observer, anchored and statistics-collection query, whatever it is waiting for.
final class LockSignal: Sendable {
    private struct State {
        var locked = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
    }
    private let state = Mutex(State())

    func set(locked: Bool) {
        let woken = state.withLock { state in
            state.locked = locked
            guard locked else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once the store is locked (at once if it is now), or when the task is cancelled.
    func untilLocked() async {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.locked || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
