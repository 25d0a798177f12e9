import Foundation
import Glibc
import Synchronization
import TestSupport

/// A `leak-probe-client` kept running under the real health-sandbox, as `EscapeWorld`'s user:
/// the test writes one command at a time (see Tests/LeakProbeClient/main.swift for the
/// language) and reads its answer, while streams opened with `open` keep printing `watch` lines.
final class SandboxedAppSession: Sendable {
    private let child: ChildProcess
    private let input: Mutex<Int32?>
    private let output = Output()
    private let commandsSent = Mutex(0)

    init(_ appID: String, in world: EscapeWorld, executable: String, data: String) async throws {
        let (program, arguments) = try await world.user.command(
            Products.path("health-sandbox"), ["run", appID, "--socket", world.adminSocket, "--data", data, "--", executable])
        let stdin = try ProcessRun.pipe()
        let stdout: (read: Int32, write: Int32)
        do {
            stdout = try ProcessRun.pipe()
        } catch {
            close(stdin.read)
            close(stdin.write)
            throw error
        }
        do {
            child = try ChildProcess(program, arguments, stdin: stdin.read, stdout: stdout.write)
        } catch {
            [stdin.read, stdin.write, stdout.read, stdout.write].forEach { close($0) }
            throw error
        }
        close(stdin.read)
        close(stdout.write)
        input = Mutex(stdin.write)
        let output = output
        // A GCD thread, not the cooperative pool: the read blocks.
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var pending: [UInt8] = []
            while true {
                let count = read(stdout.read, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    output.lines.withLock { $0.append(line) }
                }
            }
            close(stdout.read)
            output.closed.withLock { $0 = true }
        }
    }

    /// Sends one command; returns what the client printed for it (without `watch` lines) once it
    /// printed `done`. The timeout only turns a hang into a failure.
    func run(_ command: String, timeout: TimeInterval = 60) async throws -> [String] {
        let number = commandsSent.withLock { sent in
            sent += 1
            return sent
        }
        let bytes = Array((command + "\n").utf8)
        let written = input.withLock { input in
            input.map { fd in bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } } ?? -1
        }
        guard written == bytes.count else { throw SessionFailed("the app stopped reading (command \(number))") }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let answer = answer(to: number) { return answer }
            guard child.isRunning || !output.closed.withLock({ $0 }) else { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw SessionFailed("no answer to command \(number) (\(command.prefix(60))…): \(output.lines.withLock { $0.suffix(5) })")
    }

    /// Every `watch NAME …` line so far, without the prefix.
    func watched(_ name: String) -> [String] {
        let prefix = "watch \(name) "
        return output.lines.withLock { lines in lines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } }
    }

    /// Waits (bounded) until `name` printed a line that `matches`; returns it, or nil.
    func waitForWatched(_ name: String, timeout: TimeInterval = 60, where matches: (String) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = watched(name).first(where: matches) { return line }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Ends the session: the client sees end of input and exits.
    func finish() async -> Int32 {
        input.withLock { input in
            if let fd = input { close(fd) }
            input = nil
        }
        return await child.wait(timeout: 30)
    }

    deinit {
        child.signal(SIGKILL)
        input.withLock { input in
            if let fd = input { close(fd) }
        }
    }

    private func answer(to number: Int) -> [String]? {
        output.lines.withLock { lines in
            guard let done = lines.lastIndex(of: "done \(number)"),
                  let start = lines[..<done].lastIndex(where: { $0.hasPrefix("call \(number) ") }) else { return nil }
            return lines[(start + 1)..<done].filter { !$0.hasPrefix("watch ") }
        }
    }
}

private final class Output: Sendable {
    let lines = Mutex<[String]>([])
    let closed = Mutex(false)
}

struct SessionFailed: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
