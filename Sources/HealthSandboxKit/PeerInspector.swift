public import CSandbox
public import HealthIPC
import Glibc

/// healthd's peer inspector (sandbox/peer_inspector.c): a process forked before healthd confines
/// itself, which reads a peer's `/proc/PID/exe` and `/proc/PID/status` for it — what a healthd
/// confined by Landlock may no longer read itself.
public final class PeerInspector: Sendable {
    private let socket: Int32

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Forks the inspector. Call while the process has one thread and holds no secret: the
    /// inspector is a copy of it.
    public init() throws(Failure) {
        var message = [CChar](repeating: 0, count: 256)
        let fd = ohk_peer_inspector_start(&message, message.count)
        guard fd >= 0 else {
            throw Failure(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        socket = fd
    }

    /// The facts about the process behind `pidfd` (or, without one, `pid`); unknown if the
    /// inspector cannot answer, if it answered about another pid, or if the process had exited by
    /// the time it was read (its pid may belong to another program by then).
    public func facts(pid: Int32, pidfd: Int32) -> PeerProcessFacts {
        var answer = ohk_peer_facts()
        guard ohk_peer_inspect(socket, pidfd, pid, &answer) == 0, answer.pid == pid, answer.exited == 0 else {
            return .unknown
        }
        let path = String(cString: ohk_peer_facts_executable(&answer))
        let file = answer.executable_inode == 0 ? nil
            : ExecutableFile(device: answer.executable_device, inode: answer.executable_inode)
        return PeerProcessFacts(executable: PeerCredentials.installedExecutable(link: path), executableFile: file,
                                confined: answer.confined < 0 ? nil : answer.confined != 0)
    }

    /// Whether the inspector answers now: a question about this process, answered about it.
    /// False once it is gone (killed by its filter, say), when every peer counts as unknown.
    public func answers() -> Bool {
        var answer = ohk_peer_facts()
        let me = getpid()
        return ohk_peer_inspect(socket, -1, me, &answer) == 0 && answer.pid == me
    }
}
