import CSocketShim
import Glibc

/// Who is on the other end of a Unix socket, as the kernel says — never as the peer says.
public struct PeerCredentials: Sendable, Equatable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
    /// The executable behind the peer's pid (`/proc/PID/exe`), nil if it cannot be read or the
    /// process was gone (or replaced) by the time it was read.
    public let executable: String?

    public init(pid: Int32, uid: UInt32, gid: UInt32, executable: String?) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.executable = executable
    }

    /// Reads SO_PEERCRED and resolves the executable. With SO_PEERPIDFD (Linux 6.5+) the pidfd
    /// pins the very process that connected: if it has exited after `/proc/PID/exe` was read, the
    /// pid may have been reused by another program, so the executable is reported unknown. The
    /// same holds when the kernel has the option but cannot give a pidfd: kernels 6.5 to 6.15
    /// refuse one for a peer already reaped, whose pid may already belong to someone else. Only a
    /// kernel without the option (ENOPROTOOPT) falls back to the pid alone.
    public static func of(_ socket: Int32) throws(SystemCallError) -> PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard ohk_peer_credentials(socket, &pid, &uid, &gid) == 0 else {
            throw SystemCallError("getsockopt(SO_PEERCRED)")
        }
        let pidfd = ohk_peer_pidfd(socket)
        let pinningUnsupported = pidfd < 0 && errno == ENOPROTOOPT
        defer { if pidfd >= 0 { close(pidfd) } }
        var executable = readExecutable(pid: pid)
        if pidfd >= 0 ? ohk_pidfd_alive(pidfd) != 0 : !pinningUnsupported {
            executable = nil
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid, executable: executable)
    }

    static func readExecutable(pid: pid_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/\(pid)/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A replaced or deleted binary reads as "/path (deleted)": not the installed executable.
        return path.hasSuffix(" (deleted)") ? nil : path
    }
}

/// Process hardening the broker applies to itself at start.
public enum ProcessHardening {
    /// Makes this process non-dumpable: no core files, no same-uid ptrace, /proc entries
    /// readable by root only. Returns false if the kernel refused.
    @discardableResult
    public static func makeNonDumpable() -> Bool { ohk_set_not_dumpable() == 0 }

    /// Refuses memory that is writable and executable, or made executable after being written
    /// (the kernel's MDWE, Linux 6.3+): injected code cannot be made to run. The Swift runtime,
    /// SQLite and OpenSSL generate no code at run time, so nothing of healthd's needs it.
    /// Returns false where the kernel does not offer it.
    @discardableResult
    public static func denyWriteExecute() -> Bool { ohk_deny_write_execute() == 0 }
}
