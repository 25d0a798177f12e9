import Foundation
import Glibc

/// healthd's own folders at start-up: the socket folder (and the store folder, which the store
/// itself then checks file by file, `PrivateFileModes`) must be this user's and closed to every
/// other user, pre-existing ones included. A folder of another user is refused, never adopted.
enum PrivateDirectories {
    /// Everything healthd creates from here on (SQLite's database, WAL and shm files, key files,
    /// sockets before their own fchmod) starts out closed to other users. Set before any thread
    /// exists, so no other thread's file creation can race the change.
    static func restrictFileCreationMask() {
        umask(0o077)
    }

    /// Creates `path` (0700) if missing, else checks its owner and sets 0700.
    static func enforce(_ path: String, what: String) throws(StartupFailure) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StartupFailure("cannot create the \(what) folder \(path): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw StartupFailure("cannot open the \(what) folder \(path): \(String(cString: strerror(errno)))"
                                 + (errno == ELOOP || errno == ENOTDIR ? " (it must be a real folder, not a link or a file)" : ""))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw StartupFailure("cannot inspect the \(what) folder \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == geteuid() else {
            throw StartupFailure("the \(what) folder \(path) belongs to uid \(info.st_uid), not to healthd's user (uid \(geteuid())); "
                                 + "healthd keeps its files only in folders of its own user: choose another folder, or `chown` it")
        }
        if info.st_mode & 0o7777 != 0o700, fchmod(fd, 0o700) != 0 {
            throw StartupFailure("cannot set mode 700 on the \(what) folder \(path): \(String(cString: strerror(errno)))")
        }
    }
}
