import Foundation
import Glibc
import HealthWire
import Synchronization
import TestSupport

/// One app's `leak-probe-client`, started under health-sandbox and kept running: the test sends
/// one command at a time and reads its answer before deciding the next, so it can make another
/// app act between two calls and build a request from an earlier answer (an anchor).
final class ProbeSession: Sendable {
    private let child: ChildProcess
    /// The write end of the client's stdin; nil once closed.
    private let input: Mutex<Int32?>
    private let output = Output()
    private let commandsSent = Mutex(0)
    private let minted = Mutex<[UUID]>([])

    /// Starts the client confined as `appID` through the broker at `adminSocket`.
    init(_ appID: String, adminSocket: String) throws {
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
            child = try ChildProcess(Products.path("health-sandbox"),
                                     ["run", appID, "--socket", adminSocket, "--", ProbeWorld.client],
                                     stdin: stdin.read, stdout: stdout.write)
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

    /// Sends one command and returns what the client printed for it (not counting open streams'
    /// `watch` lines), once it printed `done`. The timeout only turns a hang into a failure, so it
    /// is generous: with the target's suites running side by side (several brokers each) on a
    /// loaded 2-core machine, one answer was seen to take over 30 s.
    func run(_ command: String, timeout: TimeInterval = 90) async throws -> [String] {
        let number = commandsSent.withLock { sent in
            sent += 1
            return sent
        }
        let bytes = Array((command + "\n").utf8)
        let written = input.withLock { input in
            input.map { fd in bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } } ?? -1
        }
        guard written == bytes.count else { throw ProbeFailed(reason: "the probe client stopped reading (command \(number))") }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let answer = answer(to: number) {
                if command.hasPrefix("unary \(HealthStoreMethod.save.rawValue) ") {
                    minted.withLock { $0 += ProbeTranscript.savedUUIDs(answer) }
                }
                return answer
            }
            guard child.isRunning || !output.closed.withLock({ $0 }) else { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw ProbeFailed(reason: "no answer to command \(number) (\(command.prefix(40))…): \(output.lines.withLock { $0.suffix(5) })")
    }

    /// Every UUID a save of this session was answered with: what the broker minted for this app
    /// (or, for a save it ignored, the UUID of this app's object that stays stored).
    var savedUUIDs: [UUID] { minted.withLock { $0 } }

    /// Every `watch NAME …` line so far, without the prefix.
    func watched(_ name: String) -> [String] {
        let prefix = "watch \(name) "
        return output.lines.withLock { lines in lines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } }
    }

    /// Ends the session: the client sees end of input and exits.
    func finish() async throws {
        closeInput()
        let status = await child.wait(timeout: 30)
        guard status == 0 else { throw ProbeFailed(reason: "the probe client exited with \(status)") }
    }

    deinit {
        child.signal(SIGKILL)
        closeInput()
    }

    private func closeInput() {
        input.withLock { input in
            if let fd = input { close(fd) }
            input = nil
        }
    }

    private func answer(to number: Int) -> [String]? {
        output.lines.withLock { lines in
            guard let done = lines.lastIndex(of: "done \(number)"),
                  let start = lines[..<done].lastIndex(where: { $0.hasPrefix("call \(number) ") }) else { return nil }
            return lines[(start + 1)..<done].filter { !$0.hasPrefix("watch ") }
        }
    }

    private final class Output: Sendable {
        let lines = Mutex<[String]>([])
        let closed = Mutex(false)
    }
}
