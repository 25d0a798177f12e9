import Foundation
import Glibc
import HealthIPC
import Testing

/// The socket-activation environment as healthd reads it (sd_listen_fds(3)), one variable
/// wrong at a time, and what `inspect` says about descriptors that are not listening Unix
/// stream sockets.
@Suite(.timeLimit(.minutes(10))) struct InheritedSocketsTests {
    static let pid: Int32 = 4242
    static let valid = ["LISTEN_FDS": "2", "LISTEN_PID": "4242", "LISTEN_FDNAMES": "app.sock:admin.sock"]

    @Test func aValidEnvironmentNamesEachDescriptorFromThree() throws {
        let entries = try InheritedSockets.parse(Self.valid, pid: Self.pid)
        #expect(entries == [.init(name: "app.sock", fd: 3), .init(name: "admin.sock", fd: 4)])
    }

    @Test func socketsForAnotherProcessOrNoneAtAllAreNotOurs() throws {
        #expect(try InheritedSockets.parse([:], pid: Self.pid) == nil)
        #expect(try InheritedSockets.parse(Self.valid.merging(["LISTEN_PID": "4243"]) { $1 }, pid: Self.pid) == nil)
    }

    @Test(arguments: [
        ("LISTEN_PID", nil, "LISTEN_PID is missing"),
        ("LISTEN_PID", "me", "LISTEN_PID is missing or not a process id"),
        ("LISTEN_FDS", "0", "from 1 to 16"),
        ("LISTEN_FDS", "17", "from 1 to 16"),
        ("LISTEN_FDS", "-1", "from 1 to 16"),
        ("LISTEN_FDS", "99999999999999999999", "from 1 to 16"),
        ("LISTEN_FDNAMES", nil, "LISTEN_FDNAMES is missing"),
        ("LISTEN_FDNAMES", "app.sock", "names 1 sockets but LISTEN_FDS passes 2"),
        ("LISTEN_FDNAMES", "app.sock:admin.sock:extra", "names 3 sockets"),
    ] as [(String, String?, String)])
    func aMalformedEnvironmentIsRefusedSayingWhy(variable: String, value: String?, reason: String) {
        var environment = Self.valid
        environment[variable] = value
        #expect {
            _ = try InheritedSockets.parse(environment, pid: Self.pid)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func descriptorsThatAreNotListeningUnixStreamSocketsAreNamed() throws {
        let (one, other) = try UnixSocket.pair()
        defer { close(one); close(other) }
        #expect(throws: InheritedSockets.NotAListener.self) { try InheritedSockets.inspect(one) }
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(datagram) }
        #expect { try InheritedSockets.inspect(datagram) } throws: { "\($0)".contains("not a stream socket") }
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect { try InheritedSockets.inspect(file) } throws: { "\($0)".contains("is not a socket") }
    }

    @Test func aListenerReportsItsPathAndMode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-inherit-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try UnixSocket.listen(path: directory + "/admin.sock", mode: 0o600)
        defer { close(fd) }
        #expect(try InheritedSockets.inspect(fd) == .init(path: directory + "/admin.sock", mode: 0o600))
    }
}
