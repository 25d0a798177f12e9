import Foundation
import Testing
import TestSupport

/// Runs the `store-crash-child` executable (built next to the test bundle by
/// `swift build` / `swift test`) and kills it with SIGKILL after a delay.
struct CrashChild {
    static var executablePath: String { Products.path("store-crash-child") }

    struct Outcome {
        /// Complete lines the child printed before it died.
        let lines: [String]
        /// Whether the child was still running when the kill arrived.
        let wasKilled: Bool
        let errorOutput: String
    }

    /// How long `run(_:directory:killWhen:)` waits for its state: a hang guard only, far beyond
    /// what the slowest loaded machine needs.
    static let statePatience: Duration = .seconds(300)

    /// Kills the child `delay` µs after it starts, or — with `afterLines` — that long after it
    /// has announced that many acknowledged lines, so that on a loaded machine (slow start-up)
    /// the kill still lands while it is working rather than before it began.
    static func run(_ mode: String, directory: String, killAfterMicroseconds delay: UInt32,
                    afterLines: Int = 0) throws -> Outcome {
        let (child, output, errors) = try start(mode, directory: directory)
        var received = Data()
        while received.count(where: { $0 == UInt8(ascii: "\n") }) < afterLines {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the child exited before saving that much
            received.append(chunk)
        }
        usleep(delay)
        return finish(child, output: output, errors: errors, received: received)
    }

    /// Kills the child at a moment `state` holds, whatever the machine's speed: each time `state`
    /// holds the child is stopped (SIGSTOP), and if `state` still holds while it cannot move, it
    /// is killed there; otherwise it continues and the polling goes on. Gives up (and kills the
    /// child wherever it is) after `statePatience`.
    static func run(_ mode: String, directory: String, killWhen state: () -> Bool) throws -> Outcome {
        let (child, output, errors) = try start(mode, directory: directory)
        let pid = child.processIdentifier
        let deadline = ContinuousClock.now + statePatience
        while child.isRunning, ContinuousClock.now < deadline {
            guard state() else {
                usleep(200)
                continue
            }
            kill(pid, SIGSTOP)
            while !isStopped(pid), child.isRunning, ContinuousClock.now < deadline { usleep(100) }
            if state() { break }
            kill(pid, SIGCONT)
        }
        return finish(child, output: output, errors: errors, received: Data())
    }

    private static func start(_ mode: String, directory: String) throws -> (Process, Pipe, Pipe) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executablePath)
        child.arguments = [mode, directory]
        let output = Pipe(), errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        return (child, output, errors)
    }

    private static func finish(_ child: Process, output: Pipe, errors: Pipe, received: Data) -> Outcome {
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        var received = received
        received.append(output.fileHandleForReading.readDataToEndOfFile())
        let text = String(decoding: received, as: UTF8.self)
        // A line cut by the kill has no newline yet: it was never announced.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return Outcome(
            lines: lines,
            wasKilled: child.terminationReason == .uncaughtSignal,
            errorOutput: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// Whether the process is stopped by a signal (state T in /proc/PID/stat).
    private static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).first == "T"
    }
}
