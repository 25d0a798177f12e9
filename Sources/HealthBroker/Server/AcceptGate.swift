import Synchronization

/// The door between the listening sockets and the broker, for a socket-activated healthd that
/// exits when idle. The decision "nothing is connected, nothing waits" and the closing of the
/// door happen under one lock that every accept also takes, so no connection is accepted and
/// then dropped by the exit: one that arrives after the door closed stays queued in the
/// service manager's listening socket, and the manager starts healthd again for it.
final class AcceptGate: Sendable {
    private struct State {
        var closed = false
        /// Accepts under way: from just before accept(2) until the connection is counted.
        var accepting = 0
    }

    private let state = Mutex(State())

    /// Before accepting; false once the gate is closed (the accept thread then ends).
    func enter() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.accepting += 1
            return true
        }
    }

    /// After the accepted connection was counted (or refused).
    func leave() {
        state.withLock { $0.accepting -= 1 }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Closes the gate if no accept is under way and `quiet()` holds, checked under the lock.
    func closeIfQuiet(_ quiet: () -> Bool) -> Bool {
        state.withLock { state in
            guard !state.closed else { return true }
            guard state.accepting == 0, quiet() else { return false }
            state.closed = true
            return true
        }
    }

    func close() {
        state.withLock { $0.closed = true }
    }
}
