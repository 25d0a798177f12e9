import Glibc
import HealthIPC
import HealthWire
import Synchronization

/// Every open app connection — launch-bound and direct — by app id, so that a change that ends
/// an app's identity (`healthctl apps remove`, a reinstall with another manifest, `apps
/// deny-direct`) ends its connections at once instead of at their next reconnect. The one place
/// that knows which connections speak for which app (`ConnectionRegistry` owns it).
///
/// Each entry holds its own duplicate of the connection's socket: before the connection is
/// served (a direct one still being admitted), ending it is a `shutdown` of that duplicate, which
/// reaches the socket (shutdown acts on the socket, not the descriptor) while the number can
/// never have been reused for another connection — the duplicate stays open until the
/// connection's thread has finished and `remove` closes it. Once served, ending it goes through
/// its `ServerConnection`, which tells the peer why and cancels its calls.
///
/// Revocations are numbered (`epoch`). Whoever looks an app up in the store to bind a connection
/// to it reads the epoch first and registers with it; a revocation of that app since then refuses
/// the registration. So a lookup that raced a removal can never bind a connection the removal
/// did not end: either the removal's epoch came first (the registration is refused) or the
/// registration did (the removal ends it).
final class AppConnectionTracker: Sendable {
    enum Kind: Sendable {
        /// Bound by health-sandbox's launch: the app id is the binding; no executable to recheck.
        case launched
        /// Credential-bound; `executable` is the peer's, as admission checks it
        /// (`AppPeerResolver.admit`), nil when unknown, which admission refuses.
        case direct(executable: String?)
    }

    struct Entry: Sendable {
        /// Nil while a direct connection is still being admitted.
        var appID: String?
        let kind: Kind
        let socket: Int32
        /// The revocation epoch when the app was looked up for this connection.
        let epoch: UInt64
        /// Set once the connection is served.
        var server: ServerConnection?
        /// Why it was ended, once it was: a connection ended before it is served is ended again
        /// as soon as it is (`serving`).
        var ending: RPCStatus?
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextToken: UInt64 = 1
        var epoch: UInt64 = 0
        /// The epoch of each app's last revocation.
        var revokedAt: [String: UInt64] = [:]

        func revoked(_ appID: String, since epoch: UInt64) -> Bool {
            (revokedAt[appID] ?? 0) > epoch
        }
    }

    private let state = Mutex(State())

    /// The current revocation epoch: read it before looking an app up to bind a connection.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Records a connection, before its app is known (`appID` nil, a direct connection being
    /// admitted) or bound to `appID` as looked up at `epoch`. Returns nil — and tracks nothing —
    /// when `appID` was revoked since `epoch`, or the socket cannot be duplicated (it could not
    /// be ended later); the caller must then refuse the connection.
    func add(_ kind: Kind, appID: String? = nil, socket fd: Int32, epoch: UInt64? = nil) -> UInt64? {
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard duplicate >= 0 else { return nil }
        let token = state.withLock { (state) -> UInt64? in
            let epoch = epoch ?? state.epoch
            if let appID, state.revoked(appID, since: epoch) { return nil }
            defer { state.nextToken += 1 }
            state.entries[state.nextToken] = Entry(appID: appID, kind: kind, socket: duplicate, epoch: epoch)
            return state.nextToken
        }
        if token == nil { close(duplicate) }
        return token
    }

    /// The direct connection `token` was admitted as `appID`. False if `appID` was revoked after
    /// the connection was recorded (its admission read a store the revocation has changed since):
    /// the caller refuses it.
    func admitted(_ token: UInt64, as appID: String) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[token], !state.revoked(appID, since: entry.epoch) else { return false }
            state.entries[token]?.appID = appID
            return true
        }
    }

    /// The connection `token` is now served by `server`. Returns the status it must be ended
    /// with at once if it was ended meanwhile, else nil.
    func serving(_ token: UInt64, by server: ServerConnection) -> RPCStatus? {
        state.withLock { state in
            state.entries[token]?.server = server
            return state.entries[token]?.ending
        }
    }

    /// The connection ended: forget it and close the duplicate.
    func remove(_ token: UInt64) {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: token) }) else { return }
        close(entry.socket)
    }

    var snapshot: [UInt64: Entry] { state.withLock { $0.entries } }

    /// Shuts every tracked connection's socket down now (healthd stopping, its peers past their
    /// grace to read their last word): a write blocked on a peer that does not read fails, and
    /// each reader sees end of file, so every connection's thread goes on to its clean-up. Under
    /// the lock `remove` takes an entry out under, so no descriptor here is closed (or reused) yet.
    func shutDownAll() {
        state.withLock { state in
            for entry in state.entries.values { shutdown(entry.socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Ends every connection of `appID` with `status`, and refuses from now on every registration
    /// whose lookup came before this call. Returns the served ones' connections, for the caller
    /// to wait for their calls (`ServerConnection.end`).
    func revoke(_ appID: String, with status: RPCStatus) -> [ServerConnection] {
        let tokens: [UInt64] = state.withLock { state in
            state.epoch += 1
            state.revokedAt[appID] = state.epoch
            return state.entries.filter { $0.value.appID == appID }.map(\.key)
        }
        return tokens.compactMap { mark($0, with: status) }
    }

    /// Ends every connection with `status` (healthd stopping). Returns the served ones'
    /// connections, for the caller to wait for their calls (`ServerConnection.end`).
    func endAll(with status: RPCStatus) -> [ServerConnection] {
        let tokens = state.withLock { Array($0.entries.keys) }
        return tokens.compactMap { mark($0, with: status) }
    }

    /// Ends the connection `token` if it is still open. Returns its `ServerConnection` if it is
    /// served (the caller ends it there), after shutting down a connection not yet served: its
    /// reads see end of file, so its thread stops, and the peer's next call fails.
    func end(_ token: UInt64, with status: RPCStatus) -> ServerConnection? {
        mark(token, with: status)
    }

    private func mark(_ token: UInt64, with status: RPCStatus) -> ServerConnection? {
        state.withLock { (state) -> ServerConnection? in
            guard let entry = state.entries[token] else { return nil }
            state.entries[token]?.ending = entry.ending ?? status
            if entry.server == nil { shutdown(entry.socket, Int32(SHUT_RDWR)) }
            return entry.server
        }
    }
}
