import CSocketShim
import Glibc

/// `AF_UNIX` stream sockets: the only kind OpenHealthKit uses. Every descriptor is created
/// close-on-exec, so nothing leaks into processes the broker or the launcher start.
public enum UnixSocket {
    /// Creates a listening socket at `path` with file mode `mode` (e.g. 0o600 for the admin socket).
    /// A stale socket file left by a dead broker is replaced; a live one is refused.
    public static func listen(path: String, mode: UInt32, backlog: Int32 = 64) throws(SystemCallError) -> Int32 {
        if (try? connect(path: path)).map({ close($0) }) != nil {
            throw SystemCallError("bind", errno: EADDRINUSE, path: path)
        }
        unlink(path)
        let fd = try retryingEINTR("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            // Linux gives the socket file the socket's own mode less the umask, so setting the
            // socket's mode first means the file never exists with a wider mode than asked —
            // without changing the umask, which is process-wide: another thread creating a file
            // meanwhile would get it (a key directory without its x bit, a copy not executable).
            try retryingEINTR("fchmod", path: path) { fchmod(fd, mode) }
            _ = try withAddress(path) { address, length throws(SystemCallError) in
                try retryingEINTR("bind", path: path) { bind(fd, address, length) }
            }
            // The umask may have narrowed it; widen to exactly `mode` (0o666 for the app socket).
            try retryingEINTR("chmod", path: path) { chmod(path, mode) }
            try retryingEINTR("listen", path: path) { Glibc.listen(fd, backlog) }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    public static func connect(path: String) throws(SystemCallError) -> Int32 {
        let fd = try retryingEINTR("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            _ = try withAddress(path) { address, length throws(SystemCallError) in
                try retryingEINTR("connect", path: path) { Glibc.connect(fd, address, length) }
            }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    public static func accept(_ listener: Int32) throws(SystemCallError) -> Int32 {
        try retryingEINTR("accept") { ohk_accept_cloexec(listener) }
    }

    /// A connected pair, both ends close-on-exec.
    public static func pair() throws(SystemCallError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try retryingEINTR("socketpair") {
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        }
        return (fds[0], fds[1])
    }

    /// Bounds how long a send may block on a peer that stops reading.
    public static func setSendTimeout(_ fd: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func withAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> R
    ) throws(SystemCallError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SystemCallError("bind", errno: ENAMETOOLONG, path: path)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return try withUnsafePointer(to: &address) { (pointer) throws(SystemCallError) -> R in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(SystemCallError) -> R in
                try body(address, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
