import CSocketShim
import Glibc

/// Who is on the other end of a Unix socket, as the kernel says — never as the peer says.
public struct PeerCredentials: Sendable, Equatable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
    /// The path `/proc/PID/exe` prints for the peer: nil if it cannot be read, the process was
    /// gone (or replaced) by the time it was read, or the peer is another user's (not inspected).
    /// The path is in the *peer's* mount namespace and only a claim: it counts as the peer's
    /// executable only once `runs(_:)` says so for a path a trusted source names.
    public let executablePath: String?
    /// The file the peer runs (device and inode), read with `executablePath`.
    public let executableFile: ExecutableFile?
    /// Whether the peer runs confined: a seccomp filter or `no_new_privs` (`/proc/PID/status`),
    /// both inherited across exec, so a sandboxed app that execs a manager tool still shows them.
    /// Read while the pidfd pins the process, like `executablePath`: read later by pid, a process
    /// that exited could be answered for by whatever took its pid. True when it cannot be read
    /// or the process was gone by then — unknown counts as confined.
    public let confined: Bool

    public init(pid: Int32, uid: UInt32, gid: UInt32, executablePath: String?, executableFile: ExecutableFile?, confined: Bool) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.executablePath = executablePath
        self.executableFile = executableFile
        self.confined = confined
    }

    /// Whether the peer runs the executable at `path`: its `/proc/PID/exe` prints `path`, and
    /// `path` names in this process's view the very file the peer runs. Another file there — a
    /// program bound over `path` in the peer's own mount namespace (`ExecutableFile`) — is not it.
    ///
    /// This looks `path` up in the file system, which can wait on a slow or hung mount (FUSE,
    /// NFS). Call it only with a path a trusted source names — an installed manifest's executable,
    /// a manager tool — never with a path only the peer chose: identification must not wait on
    /// a file system the peer picked (`AppPeerResolver`, `ManagerPeerPolicy`).
    public func runs(_ path: String) -> Bool {
        guard executablePath == path, let runs = executableFile else { return false }
        return ExecutableFile(path: path) == runs
    }

    /// Reads SO_PEERCRED and, for a peer of uid `inspecting` (nil: any), what `/proc` says of its
    /// process. A peer of another uid is refused by every policy before its executable matters, so
    /// its process is not inspected at all: it cannot make identification wait for anyone else.
    ///
    /// With SO_PEERPIDFD (Linux 6.5+) the pidfd
    /// pins the very process that connected: if it has exited after `/proc/PID/exe` was read, the
    /// pid may have been reused by another program, so the executable is reported unknown. The
    /// same holds when the kernel has the option but cannot give a pidfd: kernels 6.5 to 6.15
    /// refuse one for a peer already reaped, whose pid may already belong to someone else. Only a
    /// kernel without the option (ENOPROTOOPT) falls back to the pid alone. The confinement is
    /// read in the same pinned window, so both facts are about the process that connected.
    public static func of(_ socket: Int32, inspecting expectedUID: UInt32? = nil) throws(SystemCallError) -> PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard ohk_peer_credentials(socket, &pid, &uid, &gid) == 0 else {
            throw SystemCallError("getsockopt(SO_PEERCRED)")
        }
        if let expectedUID, uid != expectedUID {
            return PeerCredentials(pid: pid, uid: uid, gid: gid, executablePath: nil, executableFile: nil, confined: true)
        }
        let pidfd = ohk_peer_pidfd(socket)
        let pinningUnsupported = pidfd < 0 && errno == ENOPROTOOPT
        defer { if pidfd >= 0 { close(pidfd) } }
        var facts = PeerProcessReading.facts(pid: pid, pidfd: pidfd)
        if pidfd >= 0 ? ohk_pidfd_alive(pidfd) != 0 : !pinningUnsupported {
            facts = .unknown
        }
        return PeerCredentials(pid: pid, uid: uid, gid: gid, executablePath: facts.executable, executableFile: facts.executableFile,
                               confined: facts.confined ?? true)
    }

    /// Whether this kernel has `SO_PEERPIDFD` (Linux 6.5+), probed once on a socket pair: without
    /// it `of` reads a peer by pid alone and cannot notice a pid reused before it reads
    /// (SECURITY.md, "Not a boundary (yet)").
    public static let kernelPinsPeers: Bool = {
        guard let (one, other) = try? UnixSocket.pair() else { return false }
        defer { close(one); close(other) }
        let pidfd = ohk_peer_pidfd(one)
        if pidfd >= 0 { close(pidfd) }
        return !(pidfd < 0 && errno == ENOPROTOOPT)
    }()

    /// `Seccomp:` and `NoNewPrivs:` of /proc/PID/status: true if either is set, nil if the file
    /// cannot be read or lacks them (a kernel without the fields cannot show an unconfined peer).
    static func readConfinement(pid: pid_t) -> Bool? {
        guard let fields = statusFields(path: "/proc/\(pid)/status"),
              let seccomp = fields["Seccomp"], let noNewPrivs = fields["NoNewPrivs"] else { return nil }
        return seccomp != "0" || noNewPrivs != "0"
    }

    /// The fields of a /proc status file, name to value without whitespace; nil if it cannot be
    /// opened. The file is the kernel's and a few KiB; at most 64 KiB are read all the same.
    static func statusFields(path: String) -> [Substring: String]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var filled = 0
        while filled < bytes.count {
            let count = bytes[filled...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        var fields: [Substring: String] = [:]
        for line in String(decoding: bytes[0..<filled], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            fields[parts[0]] = parts[1].filter { !$0.isWhitespace }
        }
        return fields
    }

    static func readExecutable(pid: pid_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/\(pid)/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return installedExecutable(link: String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The executable a `/proc/PID/exe` link names, nil for none: a replaced or deleted binary
    /// reads as "/path (deleted)", which is not the installed executable.
    public static func installedExecutable(link: String) -> String? {
        link.isEmpty || link.hasSuffix(" (deleted)") ? nil : link
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

    /// Whether a seccomp filter confines this process now (`Seccomp: 2` in /proc/self/status).
    public static func seccompFiltered() -> Bool {
        PeerCredentials.statusFields(path: "/proc/self/status")?["Seccomp"] == "2"
    }
}
