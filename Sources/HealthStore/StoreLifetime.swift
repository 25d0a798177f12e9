import Synchronization

/// Whether the open store a `HealthDatabase` stands for is still in service, for work on it made
/// from outside the broker's gate: the question a stream asks between its messages (the broker's
/// `StreamVisibility`, before each one) — its grants, and on the side connection whether a visible
/// object left. Such a stream is not inside the store, so a lock or key change does not wait for
/// it; without this, its next question ran on connections closed under it (GRDB then hands SQLite
/// a closed handle: healthd died with SIGSEGV when a stream held up across a key rotation resumed
/// after anyone had deleted anything — session 20).
///
/// A small admission of its own: `whileInService` runs a question unless closing began, and
/// `beginClosing` — called by the broker before a lock or key change drains the store
/// (`StoreGate.takeOffline`) — refuses every later one and waits for those already running
/// (each a bounded read), so none runs on a closed connection. `closeCalledOff` puts the store
/// back in service when the close does not happen (its drain timed out). A store once closed is
/// never served again by the same object: every reopen makes a new `HealthDatabase`.
public final class StoreLifetime: Sendable {
    private struct State {
        var closing = false
        var running = 0
        /// `beginClosing`, waiting for the questions running when it began.
        var drained: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    public init() {}

    /// A lock or key change has begun closing the store (and did not call it off).
    public var isClosing: Bool { state.withLock { $0.closing } }

    /// Runs `body` — a question to this store from outside the gate — unless closing began; then
    /// nil, and `body` does not run. A close waits for every `body` begun before it.
    public func whileInService<T>(_ body: () throws -> T) rethrows -> T? {
        let admitted = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            state.running += 1
            return true
        }
        guard admitted else { return nil }
        defer {
            let drained = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.running -= 1
                guard state.running == 0, let drained = state.drained else { return nil }
                state.drained = nil
                return drained
            }
            drained?.resume()
        }
        return try body()
    }

    /// From now on no question runs (`whileInService` answers nil); returns once those already
    /// running have ended. Before a lock's or key change's drain.
    public func beginClosing() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                state.closing = true
                guard state.running > 0 else { return true }
                state.drained = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// The close was called off (its drain timed out) and the same store serves again.
    public func closeCalledOff() {
        state.withLock { $0.closing = false }
    }
}
