import Glibc
import HealthBroker

/// healthd's main thread once the broker serves: waits for SIGINT/SIGTERM, and — when socket
/// activated with an idle timeout — for the broker to have been idle that long, then stops
/// accepting (`Broker.closeIfIdle`) and returns so healthd exits; the service manager keeps
/// the sockets and starts healthd again on the next connection.
enum ServiceLoop {
    enum StopReason: CustomStringConvertible {
        case signal(Int32)
        case idle(Duration)

        var description: String {
            switch self {
            case let .signal(number): "signal \(number)"
            case let .idle(after): "idle for \(after.components.seconds) s (socket-activated; the next connection starts healthd again)"
            }
        }
    }

    /// How often the idle state is looked at: the timeout is honoured to within this.
    static let tick: Duration = .milliseconds(250)

    static func run(broker: Broker, idleExit: Duration?, signals: sigset_t) -> StopReason {
        var quietSince: ContinuousClock.Instant?
        while true {
            if let signal = SignalWaiter.wait(for: signals, atMost: idleExit == nil ? nil : tick) {
                return .signal(signal)
            }
            guard let idleExit else { continue }
            let now = ContinuousClock.now
            guard broker.isIdle else {
                quietSince = nil
                continue
            }
            let since = quietSince ?? now
            quietSince = since
            if now - since >= idleExit, broker.closeIfIdle() { return .idle(idleExit) }
        }
    }
}

/// SIGINT and SIGTERM taken synchronously with sigwait: nothing runs in a signal handler, so
/// there are no async-signal-safety concerns.
enum SignalWaiter {
    static func blockTerminationSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        return signals
    }

    /// The signal taken, or nil when `atMost` passed first (nil: wait for ever).
    static func wait(for signals: sigset_t, atMost timeout: Duration?) -> Int32? {
        var signals = signals
        guard let timeout else {
            var received: Int32 = 0
            sigwait(&signals, &received)
            return received
        }
        let (seconds, attoseconds) = timeout.components
        var limit = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        let received = sigtimedwait(&signals, nil, &limit)
        return received > 0 ? received : nil
    }
}
