import Synchronization

/// What `/proc` says about a peer process beyond `SO_PEERCRED`.
public struct PeerProcessFacts: Sendable, Equatable {
    /// `/proc/PID/exe`; nil when it cannot be read.
    public var executable: String?
    /// The file `/proc/PID/exe` leads to (device and inode), read with `executable`; nil when it
    /// cannot be read. A path without it is not taken for the peer's (`PeerCredentials.of`).
    public var executableFile: ExecutableFile?
    /// `Seccomp:` or `NoNewPrivs:` of `/proc/PID/status` set; nil when unknown.
    public var confined: Bool?

    public init(executable: String?, executableFile: ExecutableFile?, confined: Bool?) {
        self.executable = executable
        self.executableFile = executableFile
        self.confined = confined
    }

    public static let unknown = PeerProcessFacts(executable: nil, executableFile: nil, confined: nil)
}

/// Where `PeerCredentials.of` reads those facts. By default from `/proc` in this process. A
/// healthd confined by Landlock cannot read another process's `/proc/PID/exe` (the kernel guards
/// it with the ptrace check, which Landlock refuses for processes outside its domain), so healthd
/// installs, before it confines itself, a reader that asks its peer inspector (`PeerInspector`).
public enum PeerProcessReading {
    /// Facts about the process `pid`, pinned by `pidfd` when that is not -1. The reader may answer
    /// about the process behind the pidfd only, and must answer `.unknown` when it cannot.
    public typealias Reader = @Sendable (_ pid: Int32, _ pidfd: Int32) -> PeerProcessFacts

    /// Whether an installed reader answers now (the peer inspector is alive and answering).
    public typealias Liveness = @Sendable () -> Bool

    private static let installed = Mutex<(reader: Reader, answers: Liveness)?>(nil)

    /// Replaces the reader for the rest of the process's life. `answers` says whether it can
    /// answer now (`healthctl status`).
    public static func install(_ reader: @escaping Reader, answers: @escaping Liveness = { true }) {
        installed.withLock { $0 = (reader, answers) }
    }

    /// Who reads peers' facts, and whether that works now.
    public enum State: Sendable, Equatable {
        /// This process reads `/proc` itself (nothing installed).
        case inProcess
        /// The installed reader answers.
        case answering
        /// The installed reader does not answer: every peer is unknown, and refused.
        case gone
    }

    /// Asks the installed reader whether it answers (a question of its own, which may take as long
    /// as one identification).
    public static var state: State {
        guard let installed = installed.withLock({ $0 }) else { return .inProcess }
        return installed.answers() ? .answering : .gone
    }

    static func facts(pid: Int32, pidfd: Int32) -> PeerProcessFacts {
        if let installed = installed.withLock({ $0 }) { return installed.reader(pid, pidfd) }
        let executable = PeerCredentials.readExecutable(pid: pid)
        return PeerProcessFacts(executable: executable,
                                executableFile: executable == nil ? nil : ExecutableFile(path: "/proc/\(pid)/exe"),
                                confined: PeerCredentials.readConfinement(pid: pid))
    }
}
