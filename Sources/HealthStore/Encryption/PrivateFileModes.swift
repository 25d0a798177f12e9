#if canImport(Glibc)
import Glibc
#endif

/// The store directory is healthd's alone: 0700, and every file in it 0600, enforced each time
/// the store is opened — on files that already existed with wider modes too (an older version,
/// a restored backup, a process that changed them), since one readable `machine.key` lets every
/// local user decrypt the store. A directory or file of another user is refused, never adopted:
/// its owner could change it back, or swap it, at any time.
///
/// Files are inspected and changed through the directory's descriptor (`fstatat`/`fchmodat`),
/// never opened: this also runs while the database is open in this process (key status), and
/// closing any descriptor of a database file would drop SQLite's POSIX locks on it.
enum PrivateFileModes {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Checks the owner of `directory` and of everything in it, then sets the modes.
    static func enforce(directory: String) throws(StoreOpenError) {
        // O_NOFOLLOW: the store directory itself must not be a link either.
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw .directoryUnusable(path: directory, reason: SystemCallError("open", path: directory).reason)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .directoryUnusable(path: directory, reason: SystemCallError("fstat", path: directory).reason)
        }
        try checkOwner(info, path: directory)
        if info.st_mode & 0o7777 != directoryMode, fchmod(fd, directoryMode) != 0 {
            throw .directoryUnusable(path: directory, reason: SystemCallError("fchmod", path: directory).reason)
        }
        for name in try entries(of: directory) {
            try enforce(name: name, in: fd, directory: directory)
        }
    }

    private static func entries(of directory: String) throws(StoreOpenError) -> [String] {
        guard let listing = opendir(directory) else {
            throw .directoryUnusable(path: directory, reason: SystemCallError("opendir", path: directory).reason)
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// One entry: never a link (the store directory holds only healthd's own files), this
    /// user's, then 0600 (a directory 0700). Only this user can change the 0700 directory
    /// between the check and the change.
    private static func enforce(name: String, in directoryFD: Int32, directory: String) throws(StoreOpenError) {
        let path = directory + "/" + name
        var info = stat()
        guard fstatat(directoryFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return } // removed meanwhile (a finished rotation's leftover)
            throw .directoryUnusable(path: path, reason: SystemCallError("fstatat", path: path).reason)
        }
        guard info.st_mode & S_IFMT != S_IFLNK else {
            throw .directoryUnusable(path: path, reason: "it is a symbolic link; the store directory holds only healthd's own files")
        }
        try checkOwner(info, path: path)
        let wanted = info.st_mode & S_IFMT == S_IFDIR ? directoryMode : fileMode
        if info.st_mode & 0o7777 != wanted, fchmodat(directoryFD, name, wanted, 0) != 0 {
            throw .directoryUnusable(path: path, reason: SystemCallError("fchmodat", path: path).reason)
        }
    }

    private static func checkOwner(_ info: stat, path: String) throws(StoreOpenError) {
        guard info.st_uid == geteuid() else {
            throw .directoryUnusable(path: path, reason: "it belongs to uid \(info.st_uid), not to healthd's uid \(geteuid()); "
                                     + "healthd keeps a store only in a directory of its own user (chown -R it, or choose another --store)")
        }
    }
}
