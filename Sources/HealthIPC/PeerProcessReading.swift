import Synchronization

/// What `/proc` says about a peer process beyond `SO_PEERCRED`.
public struct PeerProcessFacts: Sendable, Equatable {
    /// `/proc/PID/exe`; nil when it cannot be read.
    public var executable: String?
    /// `Seccomp:` or `NoNewPrivs:` of `/proc/PID/status` set; nil when unknown.
    public var confined: Bool?

    public init(executable: String?, confined: Bool?) {
        self.executable = executable
        self.confined = confined
    }

    public static let unknown = PeerProcessFacts(executable: nil, confined: nil)
}

/// Where `PeerCredentials.of` reads those facts. By default from `/proc` in this process. A
/// healthd confined by Landlock cannot read another process's `/proc/PID/exe` (the kernel guards
/// it with the ptrace check, which Landlock refuses for processes outside its domain), so healthd
/// installs, before it confines itself, a reader that asks its peer inspector (`PeerInspector`).
public enum PeerProcessReading {
    /// Facts about the process `pid`, pinned by `pidfd` when that is not -1. The reader may answer
    /// about the process behind the pidfd only, and must answer `.unknown` when it cannot.
    public typealias Reader = @Sendable (_ pid: Int32, _ pidfd: Int32) -> PeerProcessFacts

    private static let installed = Mutex<Reader?>(nil)

    /// Replaces the reader for the rest of the process's life.
    public static func install(_ reader: @escaping Reader) {
        installed.withLock { $0 = reader }
    }

    static func facts(pid: Int32, pidfd: Int32) -> PeerProcessFacts {
        if let reader = installed.withLock({ $0 }) { return reader(pid, pidfd) }
        return PeerProcessFacts(executable: PeerCredentials.readExecutable(pid: pid),
                                confined: PeerCredentials.readConfinement(pid: pid))
    }
}
