public import Foundation
import Glibc
import HealthIPC

/// A finished child process: exit status and everything it printed.
public struct ProcessResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs executables as real child processes, with a deadline so a hung child fails the test
/// instead of hanging the suite.
public enum ProcessRun {
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    stdin: String? = nil, timeout: TimeInterval = 60) async throws -> ProcessResult {
        let input = try Self.pipe(), output = try Self.pipe(), errors = try Self.pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess(executable, arguments, environment: environment,
                                     stdin: input.read, stdout: output.write, stderr: errors.write)
        } catch {
            [input.read, input.write, output.read, output.write, errors.read, errors.write].forEach { close($0) }
            throw error
        }
        // The child has its own copies; keeping ours would hide its end of output.
        close(input.read)
        close(output.write)
        close(errors.write)
        if let stdin { _ = Array(stdin.utf8).withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) } }
        close(input.write)
        // Read both pipes while the child runs (a chatty child must never block on a full
        // pipe), on GCD threads: blocking reads on Swift's small cooperative pool would starve
        // every other task of the test.
        async let stdoutData = readToEnd(output.read)
        async let stderrData = readToEnd(errors.read)
        let status = await child.wait(timeout: timeout)
        return ProcessResult(status: status, stdout: String(decoding: await stdoutData, as: UTF8.self),
                             stderr: String(decoding: await stderrData, as: UTF8.self))
    }

    /// A one-way channel for a child's standard stream. A socket pair rather than pipe(2):
    /// it is created close-on-exec atomically, so a child spawned concurrently by another test
    /// never inherits it (an inherited write end would hold the reader open past the child's exit).
    public static func pipe() throws -> (read: Int32, write: Int32) {
        let (read, write) = try UnixSocket.pair()
        return (read, write)
    }

    /// Reads `fd` to its end on a GCD thread (never a cooperative-pool thread) and closes it.
    public static func readToEnd(_ fd: Int32) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(fd, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    data.append(contentsOf: buffer[0..<count])
                }
                close(fd)
                continuation.resume(returning: data)
            }
        }
    }
}
