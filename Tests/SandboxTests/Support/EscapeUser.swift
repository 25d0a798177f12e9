import Foundation
import Glibc
import TestSupport

/// Whom the real-sandbox escape tests run as: root (what CI runs as) and an ordinary user (the
/// realistic deployment). As root, the unprivileged runs go through `setpriv` as the user
/// `ohk-escape`, created on first use; as another user, they run as that user itself.
enum EscapeUser: String, CustomStringConvertible, CaseIterable, Sendable {
    case root
    case unprivileged

    static let accountName = "ohk-escape"

    var description: String { rawValue }

    /// Whether this machine can run as this user now.
    var isAvailable: Bool {
        switch self {
        case .root: getuid() == 0
        case .unprivileged: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        }
    }

    /// uid and gid of the processes run as this user; creates the account if needed.
    func ids() async throws -> (uid: uid_t, gid: gid_t) {
        guard self == .unprivileged, getuid() == 0 else { return (getuid(), getgid()) }
        if let entry = getpwnam(Self.accountName) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        let created = try await ProcessRun.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                                                      Self.accountName])
        guard let entry = getpwnam(Self.accountName) else { throw CommandFailed(result: created) }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// `executable arguments` as this user.
    func command(_ executable: String, _ arguments: [String]) async throws -> (String, [String]) {
        guard self == .unprivileged, getuid() == 0 else { return (executable, arguments) }
        let (uid, gid) = try await ids()
        // The uid change clears the parent-death signal `ChildProcess` set; setpriv sets it
        // again after the change, so a healthd run as the user still dies with the test process.
        return ("/usr/bin/setpriv", ["--reuid", String(uid), "--regid", String(gid), "--clear-groups", "--pdeathsig", "KILL", "--", executable] + arguments)
    }

    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        let (program, argv) = try await command(executable, arguments)
        return try await ProcessRun.run(program, argv, environment: environment, timeout: 60)
    }
}
