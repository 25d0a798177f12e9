import Glibc
import Synchronization

/// The open direct (credential-bound) connections, so that a change withdrawing their identity
/// — `healthctl apps deny-direct`, a reinstall naming another executable — ends them at once
/// instead of at their next reconnect.
///
/// Each entry holds its own duplicate of the connection's socket: ending a connection is a
/// `shutdown` of that duplicate, which reaches the socket (shutdown acts on the socket, not the
/// descriptor) while the number can never have been reused for another connection — the
/// duplicate stays open until the connection's thread has finished and `remove` closes it.
final class DirectConnectionTracker: Sendable {
    struct Entry: Sendable {
        /// Nil while the connection is still being admitted.
        var appID: String?
        /// The peer's executable, as admission checks it (`AppPeerResolver.admit`); nil when
        /// unknown, which admission refuses.
        let executable: String?
        let socket: Int32
    }

    private let entries = Mutex<[UInt64: Entry]>([:])
    private let nextToken = Atomic<UInt64>(1)

    /// Records a connection accepted on the app socket, before it is admitted. Returns nil (and
    /// tracks nothing) when the socket cannot be duplicated; the caller must then refuse the
    /// connection, since it could not be ended later.
    func add(executable: String?, socket fd: Int32) -> UInt64? {
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard duplicate >= 0 else { return nil }
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        entries.withLock { $0[token] = Entry(appID: nil, executable: executable, socket: duplicate) }
        return token
    }

    /// The connection was admitted as `appID`.
    func admitted(_ token: UInt64, as appID: String) {
        entries.withLock { $0[token]?.appID = appID }
    }

    /// The connection ended: forget it and close the duplicate.
    func remove(_ token: UInt64) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: token) }) else { return }
        close(entry.socket)
    }

    var snapshot: [UInt64: Entry] { entries.withLock { $0 } }

    /// Ends the connection `token` if it is still open: its reads see end of file, so its thread
    /// stops serving, and the peer's next call fails without any reply.
    func end(_ token: UInt64) {
        entries.withLock { entries in
            guard let entry = entries[token] else { return }
            shutdown(entry.socket, Int32(SHUT_RDWR))
        }
    }
}
