import Foundation
import Testing

/// Runs the `store-crash-child` executable (built next to the test bundle by
/// `swift build` / `swift test`) and kills it with SIGKILL after a delay.
struct CrashChild {
    static var executablePath: String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var directory = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        // The test binary may sit inside an .xctest bundle directory.
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("store-crash-child").path
    }

    struct Outcome {
        /// Complete lines the child printed before it died.
        let lines: [String]
        /// Whether the child was still running when the kill arrived.
        let wasKilled: Bool
        let errorOutput: String
    }

    static func run(_ mode: String, directory: String, killAfterMicroseconds delay: UInt32) throws -> Outcome {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executablePath)
        child.arguments = [mode, directory]
        let output = Pipe(), errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        usleep(delay)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // A line cut by the kill has no newline yet: it was never announced.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return Outcome(
            lines: lines,
            wasKilled: child.terminationReason == .uncaughtSignal,
            errorOutput: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}

/// Deterministic kill schedule (SplitMix64), so a failing run can be repeated.
struct KillSchedule: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
