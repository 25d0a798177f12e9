import Synchronization

/// Values registered under a token until removed, read from any thread: the bookkeeping behind
/// `ChangeNotifier` (wake-ups of long-running queries) and `UserPreferenceChanges` (the
/// preferences feeds). Posting takes the matching values under the lock and calls them after it,
/// so a callback may subscribe or unsubscribe without deadlocking.
final class Subscriptions<Value: Sendable>: Sendable {
    private struct State {
        var byToken: [UInt64: Value] = [:]
        var nextToken: UInt64 = 1
    }

    private let state = Mutex(State())

    /// Registers `value`; the token removes it.
    func add(_ value: Value) -> UInt64 {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.byToken[token] = value
            return token
        }
    }

    func remove(_ token: UInt64) {
        _ = state.withLock { $0.byToken.removeValue(forKey: token) }
    }

    /// The registered values `matches` accepts, taken under the lock.
    func values(where matches: (Value) -> Bool = { _ in true }) -> [Value] {
        state.withLock { $0.byToken.values.filter(matches) }
    }
}
