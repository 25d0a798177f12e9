import CSandbox
import Foundation
import Glibc
import Testing
import TestSupport

/// sd_notify: healthd tells the service manager (here a datagram socket the test owns, named
/// by NOTIFY_SOCKET as systemd names its own) when it serves and when it stops.
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: SocketActivator.isAvailable, "needs systemd-socket-activate (Debian package systemd)"))
struct ServiceNotifyEndToEndTests {
    @Test func readinessAndStoppingReachTheNotifySocket() async throws {
        let activator = try SocketActivator()
        let manager = try NotifyListener(path: activator.root + "/notify.sock")
        defer { manager.close() }
        try activator.activate(environment: ["NOTIFY_SOCKET": manager.path])
        #expect(try await activator.healthctl(["status"]).status == 0)
        let ready = try #require(manager.receive(timeout: 30), "no message on NOTIFY_SOCKET: \(activator.log)")
        #expect(ready.split(separator: "\n").contains("READY=1"), "\(ready)")
        // The status says whether healthd is walled into its folders (SECURITY.md "healthd's own confinement").
        let walls = ohk_landlock_abi() > 0 ? "files confined by Landlock ABI \(ohk_landlock_abi())"
                                           : "files not confined: no Landlock in this kernel"
        #expect(ready.contains("STATUS=serving (socket-activated; \(walls))"), "\(ready)")
        #expect(ready.contains("MAINPID=\(activator.process?.pid ?? -1)"), "\(ready)")

        activator.stop()
        let stopping = try #require(manager.receive(timeout: 30), "no STOPPING=1: \(activator.log)")
        #expect(stopping.split(separator: "\n").contains("STOPPING=1"), "\(stopping)")
    }
}

/// A datagram socket bound to a path, as systemd's notify socket.
struct NotifyListener {
    let path: String
    let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw Failed(reason: String(cString: strerror(errno))) }
    }

    struct Failed: Error {
        let reason: String
    }

    /// The next datagram, or nil after `timeout` seconds.
    func receive(timeout: Int32) -> String? {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, timeout * 1000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    func close() { Glibc.close(fd) }
}
