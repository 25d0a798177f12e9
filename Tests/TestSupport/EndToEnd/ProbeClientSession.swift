public import Foundation
import Glibc
import Synchronization

/// A running `leak-probe-client` (usually under health-sandbox) driven one command at a time:
/// the test writes a command line, the client prints `call N …`, its answer lines and `done N`,
/// while streams it opened keep printing `watch NAME …` lines (see Tests/LeakProbeClient/main.swift
/// for the language). Shared by the leak probes and the sandbox tests.
public final class ProbeClientSession: Sendable {
    /// Why a command got no answer; `description` says which command and the last lines printed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let child: ChildProcess
    /// The write end of the client's stdin; nil once closed.
    private let input: Mutex<Int32?>
    private let output = ProbeClientOutput()
    private let commandsSent = Mutex(0)

    /// Starts `program` with `arguments`, its stdin and stdout connected to this session.
    public init(_ program: String, _ arguments: [String]) throws {
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
        // Only the bytes just read are searched for line ends, and the lines taken are dropped
        // once per read: a megabyte-long line (a batch's hex) arrives in many reads.
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var pending: [UInt8] = []
            while true {
                let count = read(stdout.read, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                var searched = pending.count
                pending += buffer[0..<count]
                var lineStart = 0
                while let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    output.append(String(decoding: pending[lineStart..<newline], as: UTF8.self))
                    lineStart = newline + 1
                    searched = lineStart
                }
                pending.removeFirst(lineStart)
            }
            close(stdout.read)
            output.close()
        }
    }

    /// Writes to the client's stdin pipe with SIGPIPE blocked on this thread, so a client that
    /// has exited makes the write fail with EPIPE (reported as "the client stopped reading")
    /// instead of killing the whole test process: a pipe's SIGPIPE goes to the writing thread,
    /// and the one raised here is taken back before the mask is restored.
    private static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0, errno == EPIPE {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &now)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return written
    }

    /// Sends one command and returns what the client printed for it (not counting open streams'
    /// `watch` lines), once it printed `done`. The timeout only turns a hang into a failure.
    public func run(_ command: String, timeout: TimeInterval, poll: Duration = .milliseconds(5)) async throws -> [String] {
        let number = commandsSent.withLock { sent in
            sent += 1
            return sent
        }
        let bytes = Array((command + "\n").utf8)
        let written = input.withLock { input in
            input.map { fd in Self.writeWithoutSIGPIPE(fd, bytes) } ?? -1
        }
        guard written == bytes.count else {
            // Say how it ended and what it printed last, so a client that died under load can be told
            // from one that was refused (its stderr goes to the test's own).
            let ended = child.isRunning ? "still running" : "exited with \(await child.wait(timeout: 1))"
            throw Failure(description: "the client stopped reading (command \(number); \(ended)): \(output.last)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let answer = output.answer(to: number) { return answer }
            guard child.isRunning || !output.closed else { break }
            try await Task.sleep(for: poll)
        }
        throw Failure(description: "no answer to command \(number) (\(command.prefix(60))…): \(output.last)")
    }

    /// Every `watch NAME …` line so far, without the prefix.
    public func watched(_ name: String) -> [String] { output.watched(name) }

    /// Ends the session: the client sees end of input and exits; returns its exit status.
    public func finish() async -> Int32 {
        closeInput()
        return await child.wait(timeout: 30)
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
}
