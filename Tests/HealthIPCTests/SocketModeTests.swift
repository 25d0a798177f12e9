import Foundation
import Glibc
import HealthIPC
import Testing

/// `UnixSocket.listen` gives the socket file exactly the mode asked for (the admin socket 0600,
/// the app socket 0666), whatever the process umask, and leaves the umask alone: it is
/// process-wide, and changing it while other threads create files would give them its mode.
@Suite(.timeLimit(.minutes(10))) struct SocketModeTests {
    @Test(arguments: [UInt32(0o600), 0o666])
    func theSocketFileHasExactlyTheRequestedMode(mode: UInt32) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-sock-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/test.sock"
        let umaskBefore = try Self.currentUmask()
        let fd = try UnixSocket.listen(path: path, mode: mode)
        defer { close(fd) }
        let umaskAfter = try Self.currentUmask()
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(UInt32(status.st_mode) & 0o777 == mode)
        #expect(umaskAfter == umaskBefore)
    }

    /// Read from /proc, not with umask(2), which can only be read by setting it.
    static func currentUmask() throws -> String {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        return try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init))
    }
}
