import HealthIPC
import HealthModel
import HealthStore

/// Credential binding (DESIGN.md §3.2): an app that connects to the app socket itself is the
/// installed app whose manifest names the executable the kernel reports for the peer — and only
/// if the user opted that app in (`healthctl apps allow-direct`). The executable path says which
/// binary the kernel loaded, not what runs in it: a process that can set the environment of the
/// app's executable (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, …) runs its own code under that
/// path. So direct connections are the weaker mode and off by default; the launch binding
/// (health-sandbox) is the identity that holds.
struct AppPeerResolver: Sendable {
    let store: StoreHandle
    let brokerUID: UInt32
    /// Where an installed manifest's executable is looked up, within a time bound.
    var executables = ExecutableLookups()

    enum Refusal: Error, CustomStringConvertible {
        case otherUser(UInt32)
        case executableUnknown
        case confined
        case notInstalled(executable: String)
        case ambiguous(executable: String, appIDs: [String])
        case directNotAllowed(appID: String)
        case executableNotAnswering(executable: String, timeout: Duration)

        var description: String {
            switch self {
            case let .otherUser(uid):
                "connections from uid \(uid) are not accepted; apps of another user must be launched with health-sandbox"
            case .executableUnknown:
                "the connecting process's executable could not be verified (it exited, its binary was replaced, or the path it runs from names another file for healthd, as a bind mount in another mount namespace makes it); launch the app with health-sandbox"
            case .confined:
                "a confined (sandboxed) process may not connect to healthd's app socket: a sandboxed app uses the connection health-sandbox bound to it (OPENHEALTH_SOCKET_FD); run unconfined apps without no_new_privs or a seccomp filter to connect directly"
            case let .notInstalled(executable):
                "no installed app manifest names the executable \(executable); install one with `healthctl apps install MANIFEST` or launch the app with `health-sandbox run APP-ID -- …`"
            case let .ambiguous(executable, appIDs):
                "several installed apps (\(appIDs.joined(separator: ", "))) name the executable \(executable); launch the app with `health-sandbox run APP-ID -- …` to say which"
            case let .directNotAllowed(appID):
                "\(appID) may not connect to healthd directly: launch it with `health-sandbox run \(appID) -- …`, or allow direct connections (the weaker mode, see SECURITY.md) with `healthctl apps allow-direct \(appID)`"
            case let .executableNotAnswering(executable, timeout):
                "healthd could not look up the executable \(executable) that an installed manifest names: its file system did not answer within \(timeout) (a FUSE or network mount that stopped answering?); make it answer, or launch the app with `health-sandbox run APP-ID -- …`"
            }
        }

        /// The refusal in a few words for the access log (the description is a fix for the user).
        var logDetail: String {
            switch self {
            case let .otherUser(uid): "uid \(uid) is not this user"
            case .executableUnknown: "executable could not be verified"
            case .confined: "confined process dialled the app socket"
            case let .notInstalled(executable): "no app installed for \(executable.prefix(256))"
            case let .ambiguous(executable, _): "several apps installed for \(executable.prefix(256))"
            case let .directNotAllowed(appID): "direct connections not allowed for \(appID.prefix(256))"
            case let .executableNotAnswering(executable, _): "file system of \(executable.prefix(256)) did not answer"
            }
        }
    }

    func resolve(_ peer: PeerCredentials) throws -> AppManifest {
        guard peer.uid == brokerUID else { throw Refusal.otherUser(peer.uid) }
        guard let executable = peer.executablePath, peer.executableFile != nil else { throw Refusal.executableUnknown }
        // A sandboxed app already holds its launch-bound connection. One that dials the socket by
        // path (its folder handed to it) would be named by /proc/PID/exe — an executable it can
        // choose by exec'ing another app's binary with its own code preloaded. Confinement is
        // inherited across exec and never dropped, so it marks every such process.
        guard !peer.confined else { throw Refusal.confined }
        // The path the peer's process prints is matched against the manifests first, touching no
        // file; only a path an installed manifest names is then looked up to check that it is the
        // file the peer runs. A path only the peer chose is never walked here, on the app
        // socket's connection-admission workers: one on a mount that never answers would hold them.
        let app = try store.withGrantsBlocking { try Self.admit(executable: executable, in: $0) }
        // The manifest's path, looked up within a time bound (`ExecutableLookups`): this runs on
        // a connection-admission worker (`ConnectionAdmission`), which must not hang with it.
        let runs: Bool
        do throws(ExecutableLookups.NotAnswering) {
            runs = try executables.runs(peer, app.executable)
        } catch {
            throw Refusal.executableNotAnswering(executable: error.executable, timeout: error.timeout)
        }
        guard runs else { throw Refusal.executableUnknown }
        return app
    }

    /// The one rule for direct connections, applied when one is accepted and again to every open
    /// one after a change that can withdraw it (`ConnectionRegistry.revalidateDirectConnections`):
    /// exactly one installed app names `executable`, and the user allowed that app to connect
    /// directly with this executable.
    static func admit(executable: String, in database: HealthDatabase) throws -> AppManifest {
        let matches = try database.apps.find(executable: executable)
        switch matches.count {
        case 0: throw Refusal.notInstalled(executable: executable)
        case 1:
            guard try database.apps.directConnectionsAllowed(appID: matches[0].id) else {
                throw Refusal.directNotAllowed(appID: matches[0].id)
            }
            return matches[0]
        default: throw Refusal.ambiguous(executable: executable, appIDs: matches.map(\.id))
        }
    }
}
