import Glibc
import HealthIPC
import HealthSandboxKit
import Logging

/// healthd's walls against bugs in its own request handling that go up before its first thread
/// (Landlock confines only the calling thread and the threads it starts later). The seccomp filter
/// (`ohk_confine_broker`, no exec, no network) follows once it serves.
enum FileConfinement {
    /// Forks the peer inspector and routes peer identification through it: once confined,
    /// healthd cannot read another process's `/proc/PID/exe` itself. Before the passcode or the
    /// key is read, since the inspector is a copy of this process.
    static func startPeerInspector() throws(StartupFailure) {
        let inspector: PeerInspector
        do {
            inspector = try PeerInspector()
        } catch {
            throw StartupFailure("cannot start the peer inspector: \(error)")
        }
        PeerProcessReading.install({ pid, pidfd in inspector.facts(pid: pid, pidfd: pidfd) },
                                   answers: { inspector.answers() })
    }

    /// What the walls came to: the Landlock ABI (0: none, for `missingReason`), for `healthctl
    /// status`, and the line `systemctl status` shows.
    struct Walls {
        var landlockABI = 0
        var missingReason = ""
        var statusLine: String
    }

    /// Drops every capability and confines healthd to the store and socket folders it was given
    /// (`BrokerFileConfinement`). A kernel without Landlock is logged once and healthd runs on;
    /// any other failure stops it.
    static func confine(store: String, socketDirectory: String, environment: [String: String],
                        logger: Logger) throws(StartupFailure) -> Walls {
        // SQLite's temporary files (encrypted by the page cipher like the database) go to a
        // folder of the store rather than /var/tmp or /tmp, which the walls leave out; SQLite
        // reads the variable when it makes its first temporary file.
        let temporary = store + "/tmp"
        if mkdir(temporary, 0o700) != 0 && errno != EEXIST {
            throw StartupFailure("cannot create the store's folder for temporary files \(temporary): \(String(cString: strerror(errno)))")
        }
        setenv("SQLITE_TMPDIR", temporary, 1)
        let policy = BrokerFileConfinement(storeDirectory: store, socketDirectory: socketDirectory, environment: environment)
        let outcome: BrokerFileConfinement.Outcome
        do {
            outcome = try policy.apply()
        } catch {
            throw StartupFailure("cannot confine healthd to its folders: \(error)")
        }
        guard outcome.confined else {
            logger.warning("this kernel has no Landlock: healthd is not confined to its folders (a bug in request handling could reach any file of this user)")
            return Walls(missingReason: "no Landlock in this kernel", statusLine: "files not confined: no Landlock in this kernel")
        }
        logger.info("confined to its folders by Landlock", metadata: [
            "abi": "\(outcome.landlockABI)", "read-write": "\(policy.readWritePaths.joined(separator: ", "))",
            "read-only": "\(policy.readPaths.joined(separator: ", "))"])
        return Walls(landlockABI: outcome.landlockABI, statusLine: "files confined by Landlock ABI \(outcome.landlockABI)")
    }
}
