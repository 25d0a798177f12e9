import Glibc

/// Tells the service manager how healthd is doing (sd_notify(3)'s protocol: newline-separated
/// `KEY=value` lines in one datagram to the Unix socket named by `NOTIFY_SOCKET`), so that
/// `systemctl start` returns once the broker serves, and `systemctl status` shows what it does.
///
/// The socket is connected at start, before healthd confines itself, and written to later.
/// Without `NOTIFY_SOCKET` (not run by systemd, or Type= is not notify) every call does nothing.
/// Sending is best-effort: a manager that stopped listening must not stop the broker.
final class ServiceNotifier: Sendable {
    private let fd: Int32

    /// Why `NOTIFY_SOCKET` cannot be used; healthd refuses to start rather than leave the
    /// manager waiting for a readiness that never comes.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `NOTIFY_SOCKET` when set: a path, or `@name` for an abstract socket.
    init(environment: [String: String]) throws(Failure) {
        guard let target = environment["NOTIFY_SOCKET"], !target.isEmpty else {
            fd = -1
            return
        }
        guard target.hasPrefix("/") || target.hasPrefix("@") else {
            throw Failure(description: "NOTIFY_SOCKET '\(target.prefix(64))' is neither a path nor an abstract socket (@name)")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(target.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }  // the abstract namespace starts with a NUL
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw Failure(description: "NOTIFY_SOCKET is longer than a Unix socket address (\(capacity - 1) bytes)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)  // sun_path follows sun_family
        let socketFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else {
            throw Failure(description: "cannot create a socket for NOTIFY_SOCKET: \(String(cString: strerror(errno)))")
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, length) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw Failure(description: "cannot reach NOTIFY_SOCKET \(target): \(reason)")
        }
        fd = socketFD
    }

    /// READY=1: the sockets are served. `status` is shown by `systemctl status`.
    func ready(status: String) { send("READY=1\nSTATUS=\(Self.oneLine(status))\nMAINPID=\(getpid())") }

    func stopping(status: String) { send("STOPPING=1\nSTATUS=\(Self.oneLine(status))") }

    /// A line break inside a value would start a key of its own.
    private static func oneLine(_ text: String) -> String { String(text.map { $0.isNewline ? " " : $0 }) }

    private func send(_ message: String) {
        guard fd >= 0 else { return }
        let bytes = Array(message.utf8)
        while Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) < 0 && errno == EINTR {}
    }
}
