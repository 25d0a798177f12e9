import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive flock(2) on the store's lock file, held while the store is open or
/// its keys are being changed. flock locks belong to an open file description, so
/// a second open in the same process is refused just like one in another process.
final class StoreLock: Sendable {
    /// -1 once released.
    private let descriptor: Mutex<Int32>

    init(_ layout: StoreLayout) throws(StoreOpenError) {
        let fd = open(layout.lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw .directoryUnusable(
                path: layout.directory, reason: SystemCallError("open", path: layout.lockPath).reason)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { throw .storeInUse(path: layout.directory) }
            throw .directoryUnusable(
                path: layout.directory, reason: SystemCallError("flock", path: layout.lockPath, code: code).reason)
        }
        descriptor = Mutex(fd)
    }

    /// Unlocks now rather than when the last reference goes, so a key change in this process
    /// can take the lock right after. The explicit LOCK_UN matters: a child being spawned by
    /// another thread holds a copy of the descriptor until its exec closes it (O_CLOEXEC), and
    /// closing ours alone would leave the lock held through that copy.
    func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                flock(fd, LOCK_UN)
                close(fd)
            }
            fd = -1
        }
    }

    deinit { release() }
}
