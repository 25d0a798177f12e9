import Foundation
import Glibc
import Testing
import TestSupport

/// Under systemd healthd's stderr is the journal's stream, named by JOURNAL_STREAM; its lines
/// then carry their syslog priority (`<5>` notice, `<4>` warning…) so the journal keeps levels.
/// A JOURNAL_STREAM inherited by a healthd whose stderr goes elsewhere changes nothing.
@Suite(.timeLimit(.minutes(10)), .serialized) struct JournalLogEndToEndTests {
    /// Runs healthd until it is ready, stops it, and returns what it wrote to stderr.
    static func run(journalStreamMatchesStandardError: Bool, storeName: String = "store") async throws -> String {
        let root = NSTemporaryDirectory() + "ohk-journal-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let logPath = root + "/stderr"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = open(logPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        var info = stat()
        fstat(log, &info)
        let stream = "\(info.st_dev):\(info.st_ino + (journalStreamMatchesStandardError ? 0 : 1))"
        let healthd = try ChildProcess(Products.path("healthd"), ["--store", root + "/" + storeName, "--socket-dir", root + "/run"],
                                       environment: ["JOURNAL_STREAM": stream], stderr: log)
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: root + "/run/healthd.pid") && healthd.isRunning && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        healthd.signal(SIGTERM)
        #expect(await healthd.wait(timeout: 30) == 0)
        return (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    @Test func linesCarryTheirPriorityWhenStandardErrorIsTheJournal() async throws {
        let output = try await Self.run(journalStreamMatchesStandardError: true)
        let lines = output.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<5>healthd: healthd ready") }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("<5>healthd: healthd stopping") }, "\(output)")
        #expect(lines.allSatisfy { $0.first == "<" }, "\(output)")
    }

    @Test func anInheritedJournalStreamThatIsNotStandardErrorChangesNothing() async throws {
        let output = try await Self.run(journalStreamMatchesStandardError: false)
        #expect(output.contains("healthd ready"), "\(output)")
        #expect(!output.contains("<5>"), "\(output)")
    }

    /// A line break inside logged text is written as a space, so text healthd logs (here the
    /// store's path, which whoever starts healthd chooses) can never start a journal entry of its
    /// own with a priority of its choosing (`JournalLogHandler.line`).
    @Test func aLineBreakInLoggedTextNeverStartsAnEntryOfItsOwn() async throws {
        let output = try await Self.run(journalStreamMatchesStandardError: true, storeName: "store\n<2>healthd: forged\r<1>x")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(output.contains("forged"), "the store's path is logged at start: \(output)")
        #expect(lines.allSatisfy { $0.hasPrefix("<5>") || $0.hasPrefix("<4>") || $0.hasPrefix("<6>") }, "\(output)")
        #expect(!lines.contains { $0.hasPrefix("<2>") || $0.hasPrefix("<1>") }, "\(output)")
    }
}
