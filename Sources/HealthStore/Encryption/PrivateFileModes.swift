#if canImport(Glibc)
import Glibc
#endif

/// The store directory is healthd's alone: 0700, and every file in it 0600, enforced each time
/// the store is opened — on files that already existed with wider modes too (an older version,
/// a restored backup, a process that changed them), since one readable `machine.key` lets every
/// local user decrypt the store. A directory or file of another user is refused, never adopted:
/// its owner could change it back, or swap it, at any time.
enum PrivateFileModes {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Checks the owner of `directory` and of everything in it, then sets the modes.
    static func enforce(directory: String) throws(StoreOpenError) {
        try enforce(path: directory, expectDirectory: true)
        guard let listing = opendir(directory) else {
            throw .directoryUnusable(path: directory, reason: SystemCallError("opendir", path: directory).reason)
        }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            try enforce(path: directory + "/" + name, expectDirectory: nil)
        }
    }

    /// Opens without following a link (a link in the store directory is never ours), checks the
    /// owner on the open descriptor and sets the mode through it, so nothing can be swapped in
    /// between the check and the change.
    private static func enforce(path: String, expectDirectory: Bool?) throws(StoreOpenError) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ELOOP {
                throw .directoryUnusable(path: path, reason: "it is a symbolic link; the store directory holds only healthd's own files")
            }
            throw .directoryUnusable(path: path, reason: SystemCallError("open", path: path).reason)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .directoryUnusable(path: path, reason: SystemCallError("fstat", path: path).reason)
        }
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        if let expectDirectory, expectDirectory != isDirectory {
            throw .directoryUnusable(path: path, reason: "not a directory")
        }
        guard info.st_uid == geteuid() else {
            throw .directoryUnusable(path: path, reason: "it belongs to uid \(info.st_uid), not to healthd's uid \(geteuid()); "
                                     + "healthd keeps a store only in a directory of its own user (chown -R it, or choose another --store)")
        }
        let wanted = isDirectory ? directoryMode : fileMode
        if info.st_mode & 0o7777 != wanted, fchmod(fd, wanted) != 0 {
            throw .directoryUnusable(path: path, reason: SystemCallError("fchmod", path: path).reason)
        }
    }
}
