import Foundation
import Glibc
import TestSupport

/// A pseudo-terminal standing in for the user's: a child gets its terminal end, opened
/// read-write as a shell opens it, as standard input and error; standard output is a pipe the
/// test reads (escape-probe's "name: value" lines).
final class Terminal {
    struct Unavailable: Error, CustomStringConvertible {
        let step: String
        let errno: Int32
        var description: String { "cannot make a pseudo-terminal: \(step): \(String(cString: strerror(errno)))" }
    }

    private let controller: Int32
    private let terminal: Int32
    /// The user's end, as a child gets it; and the terminal's own end, which shows what it received.
    var terminalDescriptor: Int32 { terminal }
    var controllerDescriptor: Int32 { controller }

    /// `owner`: who may open the terminal again (a user's own terminal belongs to that user).
    init(owner: (uid: uid_t, gid: gid_t)) throws {
        // /dev/ptmx directly: Glibc's module does not export posix_openpt, grantpt or ptsname.
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard controller >= 0 else { throw Unavailable(step: "open /dev/ptmx", errno: errno) }
        var unlock: Int32 = 0, number: UInt32 = 0
        // TIOCSPTLCK (unlock the terminal end), TIOCGPTN (its number in /dev/pts).
        guard ioctl(controller, 0x4004_5431, &unlock) == 0, ioctl(controller, 0x8004_5430, &number) == 0 else {
            let failure = Unavailable(step: "TIOCSPTLCK/TIOCGPTN", errno: errno)
            Glibc.close(controller)
            throw failure
        }
        let name = "/dev/pts/\(number)"
        terminal = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else {
            let failure = Unavailable(step: "open \(name)", errno: errno)
            Glibc.close(controller)
            throw failure
        }
        fchown(terminal, owner.uid, owner.gid)
    }

    /// Runs `program` with the terminal as stdin and stderr; returns what it printed on stdout, by name.
    func run(_ program: String, _ arguments: [String]) async throws -> [String: String] {
        let output = try ProcessRun.pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess(program, arguments, stdin: terminal, stdout: output.write, stderr: terminal)
        } catch {
            Glibc.close(output.read)
            Glibc.close(output.write)
            throw error
        }
        Glibc.close(output.write)
        let printed = await ProcessRun.readToEnd(output.read)
        _ = await child.wait(timeout: 60)
        drain()
        return RealSandboxEscapeTests.results(ProcessResult(status: 0, stdout: String(decoding: printed, as: UTF8.self), stderr: ""))
    }

    func close() {
        Glibc.close(terminal)
        Glibc.close(controller)
    }

    /// What was written to the terminal (nobody reads it; a full buffer would block the writer).
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(controller, &buffer, buffer.count) > 0 {}
    }
}
