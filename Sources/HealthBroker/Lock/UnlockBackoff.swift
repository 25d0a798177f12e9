import Foundation
import HealthModel
import Synchronization

/// The back-off after wrong passcodes at unlock: the first `freeAttempts` mistakes cost nothing
/// (typos), then each further one doubles the wait before the next attempt is even checked
/// (1 s, 2 s, 4 s, … up to `maximumDelay`). A right passcode resets it.
///
/// Kept in memory, not persisted: the only callers are on the admin socket (the user's own uid),
/// and whoever can restart healthd must hand it the passcode or the machine key to start it
/// (`--passcode-file`), so a persisted counter would not slow them. What it stops is a script
/// on the admin socket trying passcodes at scrypt speed.
final class UnlockBackoff: Sendable {
    static let freeAttempts = 3
    static let firstDelay: Duration = .seconds(1)
    static let maximumDelay: Duration = .seconds(300)

    private struct State {
        var failures = 0
        var notBefore = ContinuousClock.now
    }
    private let state = Mutex(State())

    /// Throws while a back-off is running, saying how long is left.
    func checkAllowed(now: ContinuousClock.Instant = .now) throws(HKError) {
        let notBefore = state.withLock { $0.notBefore }
        guard now >= notBefore else {
            let seconds = Int(((notBefore - now) / .seconds(1)).rounded(.up))
            throw HKError(.errorAuthorizationDenied,
                          "too many wrong passcodes; the next unlock attempt is accepted in \(seconds) s")
        }
    }

    /// Records a wrong passcode; returns the delay now imposed (zero for the free attempts).
    @discardableResult
    func recordFailure(now: ContinuousClock.Instant = .now) -> Duration {
        state.withLock { state in
            state.failures += 1
            let over = state.failures - Self.freeAttempts
            guard over > 0 else { return .zero }
            let delay = min(Self.firstDelay * (1 << min(over - 1, 20)), Self.maximumDelay)
            state.notBefore = now + delay
            return delay
        }
    }

    func recordSuccess() {
        state.withLock { $0 = State() }
    }
}
