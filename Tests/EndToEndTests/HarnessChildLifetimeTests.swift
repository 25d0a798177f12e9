import Foundation
import Glibc
import Testing
import TestSupport

/// Every healthd a test starts dies with the test process (`ChildProcess`: a parent-death signal
/// set through `setpriv`). Before, `StatementBudgetEndToEndTests`' static world — a healthd never
/// stopped — ran on after each test run with its peer inspector, as did the healthd of any test
/// process killed by its time limit or by hand.
///
/// A test process in miniature, `broker-holder`, starts a healthd through the support code
/// (`BrokerProcess`) and waits; it is killed with SIGKILL (no clean-up of its own can run), and
/// its healthd and the peer inspector healthd forked must be gone within the bound.
@Suite(.timeLimit(.minutes(10))) struct HarnessChildLifetimeTests {
    /// How long the healthd may take to die once its test process is gone: the kernel sends the
    /// signal at once, so this only allows for a loaded machine.
    static let bound: TimeInterval = 20

    @Test func aHealthdStartedByTheSupportCodeDiesWithItsKilledTestProcess() async throws {
        let output = try ProcessRun.pipe()
        let holder = try ChildProcess(Products.path("broker-holder"), [], stdout: output.write)
        close(output.write)
        defer { close(output.read) }
        let line = Self.firstLine(output.read, within: 120)
        let words = line?.split(separator: " ") ?? []
        let healthd = try #require(words.count == 3 && words[0] == "healthd" ? Int32(words[1]) : nil,
                                   "broker-holder printed no healthd pid: \(line ?? "nothing")")
        let inspectors = Self.children(of: healthd)
        // Whatever the outcome, nothing of this test outlives it (before the fix, the check
        // below fails and these were still running).
        defer {
            for pid in [healthd] + inspectors where Self.isAlive(pid) { kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: String(words[2]))
        }
        #expect(Self.isAlive(healthd), "control: the holder's healthd runs")
        #expect(!inspectors.isEmpty && inspectors.allSatisfy(Self.isAlive), "control: healthd's peer inspector runs (\(inspectors))")

        holder.signal(SIGKILL)
        _ = await holder.wait(timeout: 30)
        let deadline = Date().addingTimeInterval(Self.bound)
        while ([healthd] + inspectors).contains(where: Self.isAlive), Date() < deadline { usleep(50_000) }
        #expect(!Self.isAlive(healthd), "healthd \(healthd) outlived its test process (SIGKILLed) by \(Self.bound) s")
        for inspector in inspectors {
            #expect(!Self.isAlive(inspector), "healthd's child \(inspector) outlived the test process by \(Self.bound) s")
        }
    }

    /// A process that runs: it exists and is not a zombie (a dead child that nobody reaped yet;
    /// an orphan's reaper here may be slow to reap, or never).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    /// The pids of `pid`'s children (every thread's), as /proc lists them.
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// The first line `fd` gives within `seconds`, nil if none.
    static func firstLine(_ fd: Int32, within seconds: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        while Date() < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) >= 0 || errno == EINTR else { return nil }
            guard ready.revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
