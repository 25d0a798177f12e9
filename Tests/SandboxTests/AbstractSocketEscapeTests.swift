import Foundation
import Glibc
import Testing
import TestSupport

/// An abstract Unix socket the app binds inside is in its network namespace only: a process
/// outside cannot reach it (issue 12: "an app can bind abstract Unix sockets that processes
/// outside connect to"). Control: the same program unconfined is reached.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AbstractSocketEscapeTests {
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func anAbstractSocketBoundInsideIsInvisibleOutside(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install("org.test.listener", product: "escape-probe")
        let health = Products.path("health-sandbox")
        let confined = try await Self.connectWhileListening(user: user, world: world, name: "ohk-inside-" + UUID().uuidString.prefix(8)) { name in
            [health, "run", "org.test.listener", "--socket", world.adminSocket, "--", app.executable, "listen-abstract", name]
        }
        #expect(confined.output.contains("abstract_bind_inside: allowed"), "\(confined.output)")
        #expect(confined.connectErrno == ECONNREFUSED, "outside connect: errno \(confined.connectErrno)")
        #expect(confined.output.contains("abstract_inside_accepted: no"), "\(confined.output)")

        let control = try await Self.connectWhileListening(user: user, world: world, name: "ohk-control-" + UUID().uuidString.prefix(8)) { name in
            [app.executable, "listen-abstract", name]
        }
        #expect(control.connectErrno == 0, "control: errno \(control.connectErrno)")
        #expect(control.output.contains("abstract_inside_accepted: yes"), "\(control.output)")
    }

    /// Starts the command, waits for its bind line, connects from here, waits for it to end.
    static func connectWhileListening(user: EscapeUser, world: EscapeWorld, name: String,
                                      _ command: (String) -> [String]) async throws -> (output: String, connectErrno: Int32) {
        let outputPath = world.root + "/listen-\(name).out"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        defer { close(output) }
        let full = command(name)
        let (program, arguments) = try await user.command(full[0], Array(full.dropFirst()))
        let child = try ChildProcess(program, arguments, stdout: output, stderr: output)
        let deadline = Date().addingTimeInterval(120)
        var text = ""
        while !text.contains("abstract_bind_inside"), child.isRunning, Date() < deadline {
            usleep(20_000)
            text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }
        let result = Self.connect(abstract: name)
        _ = await child.wait(timeout: 20)
        return ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "", result)
    }

    static func connect(abstract name: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
        let rc = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) } }
        return rc == 0 ? 0 : errno
    }
}
