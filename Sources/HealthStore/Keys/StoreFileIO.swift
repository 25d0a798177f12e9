import CPageCipher
#if canImport(Glibc)
import Glibc
#endif

/// The few file operations key custody needs, done with POSIX calls so modes,
/// ownership and fsync are under control. Every write is atomic: a temporary file
/// is written and fsynced, renamed over the target, and the directory fsynced, so a
/// crash leaves either the old or the new content.
enum StoreFileIO {
    struct Status {
        let mode: mode_t
        let owner: uid_t
        let size: Int
    }

    static func status(_ path: String) throws(SystemCallError) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw SystemCallError("stat", path: path)
        }
        return Status(mode: info.st_mode & 0o7777, owner: info.st_uid, size: Int(info.st_size))
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Reads a whole small file into `body`'s buffer, which is cleansed afterwards.
    static func withContents<R>(
        of path: String, maximumSize: Int, _ body: (UnsafeRawBufferPointer) throws(StoreOpenError) -> R
    ) throws(StoreOpenError) -> R {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .keyFileUnreadable(path: path, reason: SystemCallError("open", path: path).reason)
        }
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: maximumSize + 1, alignment: 16)
        defer {
            ohk_cleanse(buffer.baseAddress, buffer.count)
            buffer.deallocate()
        }
        var total = 0
        while total <= maximumSize {
            let n = read(fd, buffer.baseAddress! + total, maximumSize + 1 - total)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw .keyFileUnreadable(path: path, reason: SystemCallError("read", path: path).reason)
            }
            if n == 0 { break }
            total += n
        }
        guard total <= maximumSize else {
            throw .keyFileMalformed(path: path, reason: "larger than \(maximumSize) bytes")
        }
        return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<total]))
    }

    /// Replaces `path` atomically with `bytes`, mode 0600.
    static func writeAtomically(_ path: String, bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SystemCallError("open", path: temporary) }
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let failure = SystemCallError("write", path: temporary)
                close(fd)
                throw failure
            }
            written += n
        }
        guard fchmod(fd, 0o600) == 0, fsync(fd) == 0 else {
            let failure = SystemCallError("fsync", path: temporary)
            close(fd)
            throw failure
        }
        close(fd)
        try rename(temporary, to: path)
    }

    static func writeAtomically(_ path: String, contents: [UInt8]) throws(SystemCallError) {
        var failure: SystemCallError?
        contents.withUnsafeBytes { raw in
            do throws(SystemCallError) { try writeAtomically(path, bytes: raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// rename(2) followed by an fsync of the containing directory, which is what
    /// makes the new name durable.
    static func rename(_ source: String, to target: String) throws(SystemCallError) {
        guard Glibc.rename(source, target) == 0 else { throw SystemCallError("rename", path: target) }
        try syncDirectory(containing: target)
    }

    static func syncFile(_ path: String) throws(SystemCallError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError("open", path: path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SystemCallError("fsync", path: path) }
    }

    static func syncDirectory(containing path: String) throws(SystemCallError) {
        try syncFile(parentDirectory(of: path))
    }

    /// Removes `path` if present (and makes the removal durable).
    static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return }
            throw SystemCallError("unlink", path: path)
        }
        try syncDirectory(containing: path)
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
