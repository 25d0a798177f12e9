import Foundation
import Glibc
import Testing
import TestSupport

/// A fatal signal's location reaches the log (session 21): Swift's backtracer cannot run in
/// healthd (its seccomp filter forbids exec), so a trap left only "Backtracing ... failed".
/// `CrashReport` writes the signal and each frame as an offset into the executable, then the
/// process dies by the same signal.
@Suite(.timeLimit(.minutes(10)), .serialized) struct CrashReportEndToEndTests {
    static let probeSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CrashReportProbe/main.swift")

    /// The offsets the report line gives for the executable (not the `abs:` library addresses).
    static func offsets(in line: Substring) -> [String] {
        line.split(separator: " ").map(String.init).filter { $0.hasPrefix("0x") }
    }

    /// An overflow trap (SIGILL) is reported, and addr2line names the line that overflowed.
    @Test func anOverflowTrapIsReportedWithOffsetsThatNameItsLine() async throws {
        let probe = Products.path("crash-report-probe")
        let result = try await ProcessRun.run(probe, [], timeout: 120)
        #expect(result.status == 128 + SIGILL, "\(result)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("crash-report-probe: fatal signal 4 ") },
                                "\(result)")
        let offsets = Self.offsets(in: line)
        #expect(offsets.count >= 2, "\(line)")
        let source = try String(contentsOf: Self.probeSource, encoding: .utf8)
        let trapLine = try #require(source.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("(the trapping line)") }) + 1
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/addr2line") else { return }
        let decoded = try await ProcessRun.run("/usr/bin/addr2line", ["-f", "-i", "-C", "-e", probe] + offsets)
        #expect(decoded.stdout.contains("main.swift:\(trapLine)"), "addr2line of \(offsets): \(decoded.stdout)")
    }

    /// healthd installs it, and it works under healthd's own confinement: a SIGILL (sent here;
    /// a trap raises the same signal) leaves the line in healthd's log and healthd dies by it.
    @Test func healthdReportsAFatalSignalInItsLog() async throws {
        let broker = try BrokerProcess()
        #expect(kill(broker.pid, SIGILL) == 0)
        let deadline = Date().addingTimeInterval(120)
        while broker.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!broker.isRunning, "healthd did not die of SIGILL")
        let line = broker.log.split(separator: "\n").first { $0.contains("healthd: fatal signal 4 ") }
        #expect(line != nil, "no report in healthd's log: \(broker.log.suffix(2000))")
        if let line { #expect(!Self.offsets(in: line).isEmpty, "\(line)") }
        #expect(!broker.log.contains("Backtracing"), "\(broker.log.suffix(2000))")
    }
}
