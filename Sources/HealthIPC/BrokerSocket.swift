import CSocketShim
import Foundation
import Glibc

/// The one way a client dials healthd (healthctl, health-sandbox, its launch agent, the SDK):
/// it talks only to a healthd of its own user — or root's — and sends nothing to anything else.
///
/// Why: a socket path is only a name. Another local user who made the socket folder first (or a
/// folder on the way to it) and listens there would otherwise receive `healthctl unlock`'s
/// passcode, `import`'s whole export, the apps' saves, and could make the agent launch programs
/// of its choice. Two checks, before a single byte is sent:
/// 1. the socket's folder is a real folder (not a link), owned by this user or root, and not
///    writable by group or others — else no one can tell who put the socket there;
/// 2. after `connect`, the kernel's `SO_PEERCRED` for the listening end (the credentials of the
///    process that called `listen`) is this user or root — else the connection is closed.
/// The second is the one that holds: the folder is checked by name before connecting, and a
/// folder whose parent another user can write may be swapped in between; no one can forge
/// `SO_PEERCRED`. The first names the problem (and its fix) before anything is dialled.
public enum BrokerSocket {
    /// Connects to the healthd socket at `path`, or refuses with the reason and its fix.
    public static func connect(path: String) throws(BrokerConnectError) -> Int32 {
        let folder = folder(of: path)
        try checkFolder(folder)
        let fd: Int32
        do {
            fd = try UnixSocket.connect(path: path)
        } catch {
            throw .unreachable(error)
        }
        var pid: pid_t = 0, uid: uid_t = 0, gid: gid_t = 0
        guard ohk_peer_credentials(fd, &pid, &uid, &gid) == 0 else {
            let failure = SystemCallError("getsockopt(SO_PEERCRED)", path: path)
            close(fd)
            throw .unreachable(failure)
        }
        guard trusts(uid) else {
            close(fd)
            throw .foreignListener(socket: path, uid: uid)
        }
        return fd
    }

    /// This process's user and root: the only users whose healthd a client talks to. Root may
    /// do anything to this user's files anyway; a root healthd is one the user chose by path.
    static func trusts(_ uid: uid_t) -> Bool {
        uid == geteuid() || uid == 0
    }

    /// The folder a socket path lies in ("." for a bare name).
    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// The socket folder: a directory itself, not a link (`lstat`), of this user or root, closed
    /// to writers other than its owner. By name, so it only explains: the listener check holds.
    static func checkFolder(_ folder: String) throws(BrokerConnectError) {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw .unreachable(SystemCallError("lstat", path: folder))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .folderNotReal(folder: folder)
        }
        guard trusts(info.st_uid) else {
            throw .foreignFolder(folder: folder, owner: info.st_uid)
        }
        guard info.st_mode & 0o022 == 0 else {
            throw .folderOpenToOthers(folder: folder, mode: info.st_mode & 0o7777)
        }
    }
}

/// Why a client did not talk to what it found at a healthd socket path. Every case but
/// `unreachable` means something other than the user's healthd may be there: nothing was sent.
public enum BrokerConnectError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to connect to (no healthd, no folder, no permission): the system call's error.
    case unreachable(SystemCallError)
    /// The socket folder is a link or a file, not a folder.
    case folderNotReal(folder: String)
    /// The socket folder belongs to another user.
    case foreignFolder(folder: String, owner: UInt32)
    /// The socket folder is writable by its group or by others.
    case folderOpenToOthers(folder: String, mode: UInt32)
    /// What listens on the socket runs as another user.
    case foreignListener(socket: String, uid: UInt32)

    /// True when something may pose as healthd (every case but `unreachable`): retrying does not
    /// help, the user has to look.
    public var isImpostorSuspected: Bool {
        if case .unreachable = self { return false }
        return true
    }

    public var description: String {
        let me = "you (uid \(geteuid()))"
        let fix = "nothing was sent. If healthd is yours and runs elsewhere, name its socket (--socket, "
            + "OPENHEALTH_ADMIN_SOCKET / OPENHEALTH_APP_SOCKET, or XDG_RUNTIME_DIR)"
        switch self {
        case let .unreachable(error):
            return "\(error)"
        case let .folderNotReal(folder):
            return "the socket folder \(folder) is a link or a file, not a folder: whoever made it may pose as healthd, so "
                + fix + "; otherwise remove it and restart healthd"
        case let .foreignFolder(folder, owner):
            return "the socket folder \(folder) belongs to \(Self.user(owner)), not to \(me) or root: another user may have made "
                + "it to pose as healthd, so " + fix + "; otherwise have it removed (`sudo rm -r \(folder)`) and restart healthd"
        case let .folderOpenToOthers(folder, mode):
            return "the socket folder \(folder) is writable by other users (mode \(String(mode, radix: 8))): anyone could have "
                + "put a socket there posing as healthd, so " + fix + "; otherwise `chmod go-w \(folder)` and restart healthd"
        case let .foreignListener(socket, uid):
            return "the process listening on \(socket) runs as \(Self.user(uid)), not as \(me) or root: it is not your healthd, so "
                + fix + "; otherwise find who listens there (`ss -xlp`) and restart healthd"
        }
    }

    /// "uid 1001 (mallory)", the name where the system knows one.
    static func user(_ uid: UInt32) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        // The name points into `buffer`: read it while the buffer is pinned.
        return buffer.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress, getpwuid_r(uid, &entry, base, bytes.count, &found) == 0, found != nil,
                  let name = entry.pw_name else {
                return "uid \(uid)"
            }
            return "uid \(uid) (\(String(cString: name)))"
        }
    }
}
