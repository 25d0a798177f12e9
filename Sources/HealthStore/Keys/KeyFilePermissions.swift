#if canImport(Glibc)
import Glibc
#endif

/// Key files must belong to the broker's user and be readable by nobody else — and so must the
/// directory holding them. Checked again right before a key is read, even though opening the
/// store set the modes (`PrivateFileModes`): the modes may have changed since.
enum KeyFilePermissions {
    static func check(_ path: String) throws(StoreOpenError) {
        try checkDirectory(of: path)
        let status: StoreFileIO.Status?
        do {
            status = try StoreFileIO.status(path)
        } catch {
            throw .keyFileUnreadable(path: path, reason: error.reason)
        }
        guard let status else { throw .keyFileUnreadable(path: path, reason: "it does not exist") }
        guard status.owner == geteuid(), status.mode & 0o077 == 0 else {
            throw .keyFilePermissions(path: path, mode: UInt32(status.mode))
        }
    }

    /// The directory a key file is in: this user's, and closed to others (0700 or stricter), so
    /// nobody else can list it, replace the key file or read it in a window between checks.
    private static func checkDirectory(of path: String) throws(StoreOpenError) {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let status: StoreFileIO.Status?
        do {
            status = try StoreFileIO.status(directory)
        } catch {
            throw .keyFileUnreadable(path: path, reason: error.reason)
        }
        guard let status, status.owner == geteuid(), status.mode & 0o077 == 0 else {
            throw .directoryUnusable(path: directory, reason: "it holds key files, so it must be owned by healthd's user "
                                     + "(uid \(geteuid()), not \(status.map { String($0.owner) } ?? "?")) with mode 700, "
                                     + "not \(String((status?.mode ?? 0) & 0o7777, radix: 8)): run chmod 700 \(directory)")
        }
    }
}
