#if canImport(Glibc)
import Glibc
#endif

/// Key files must belong to the broker's user and be readable by nobody else.
enum KeyFilePermissions {
    static func check(_ path: String) throws(StoreOpenError) {
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
}
