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

    /// Kills the child `delay` µs after it starts, or — with `afterFirstLine` — after its first
    /// acknowledged line, so that on a loaded machine (slow start-up) the kill still lands while
    /// it is working rather than before it began.
    static func run(_ mode: String, directory: String, killAfterMicroseconds delay: UInt32,
                    afterFirstLine: Bool = false) throws -> Outcome {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executablePath)
        child.arguments = [mode, directory]
        let output = Pipe(), errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        var received = Data()
        if afterFirstLine {
            while !received.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the child exited before saving anything
                received.append(chunk)
            }
        }
        usleep(delay)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
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
}
