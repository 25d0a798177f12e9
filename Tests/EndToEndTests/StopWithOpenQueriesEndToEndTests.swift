import Foundation
import Glibc
import HealthModel
import Testing
import TestSupport

/// healthd stopped (SIGTERM) while an app has long-running queries open, its checks woken by
/// saves: it exits cleanly, and every long-running query it ended has its access-log entry
/// (SECURITY.md "Open, known": a streamed read's entry is written when its call ends).
///
/// Before the fix, `Broker.stop` stopped accepting and wrote the storage counts, and healthd
/// exited with every call still running: the anchored queries' entries were never written, and
/// their store work ran on while the process exited (SIGSEGV in 2 of 3 stops of this set-up in
/// the s21 privacy review, finding 3). Now the stop ends every app connection and waits for its
/// calls to finish first.
///
/// The set-up is the review's: one sandboxed reader with 14 anchored queries of 64 descriptors
/// on sleep analysis, which it may read in a 30-day window, and an observer on its own steps;
/// another app saves sleep samples from before the window, the reader saves a step; then
/// SIGTERM. Three stops on one store.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StopWithOpenQueriesEndToEndTests {
    static let reader = "org.test.stop-reader"
    static let writer = "org.test.stop-writer"
    static let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let queries = 14
    static let stops = 3

    struct LoggedEntry: Decodable {
        let action: String
        let types: [String]
    }

    @Test func healthdStopsCleanlyWithLongRunningQueriesOpenAndLogsEachOfThem() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await healthd.installClient(Self.reader)
        try await healthd.installClient(Self.writer)
        for arguments in [[Self.reader, "share", "stepCount"], [Self.reader, "read", "stepCount"],
                          [Self.reader, "read", "sleepAnalysis", "--window", "30d"], [Self.writer, "share", "sleepAnalysis"]] {
            let result = try await healthd.healthctl(["grant"] + arguments)
            try #require(result.status == 0, "\(result)")
        }
        let now = Int(Date().timeIntervalSince1970)
        // Five samples the reader sees in its window, so each query's first delivery has rows.
        let visible = (0..<5).flatMap { ["--category", Self.sleep, "0", "\(now - 86_400 + $0 * 60)", "\(now - 86_400 + $0 * 60 + 30)"] }
        let saved = try await healthd.runApp(Self.writer, ["save-batch"] + visible)
        try #require(saved.status == 0, "\(saved)")
        let descriptors = Array(repeating: Self.sleep, count: 64).joined(separator: ",")

        for stop in 1...Self.stops {
            if stop > 1 { try healthd.start() }
            var apps: [LiveApp] = []
            for _ in 0..<Self.queries {
                apps.append(try LiveApp(Self.reader, ["anchored", descriptors, "--updates", "100000"], adminSocket: healthd.adminSocket))
            }
            let observer = try LiveApp(Self.reader, ["observe", Self.steps, "--count", "100000"], adminSocket: healthd.adminSocket)
            for (index, app) in apps.enumerated() {
                let deadline = Date().addingTimeInterval(120)
                while !app.lines.contains(where: { $0.hasPrefix("delivery initial") }), Date() < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                try #require(app.lines.contains(where: { $0.hasPrefix("delivery initial") }),
                             "stop \(stop): query \(index) had no first delivery: \(app.lines.suffix(3))")
            }
            try #require(try await observer.waitForLine("update 1"), "stop \(stop): the observer did not start")
            // Hidden saves (before the window) wake every check; the reader's own step too.
            let old = now - 60 * 86_400 - stop * 100_000
            let hidden = (0..<200).flatMap { ["--category", Self.sleep, "0", "\(old + $0 * 10)", "\(old + $0 * 10 + 5)"] }
            let hiddenSave = try await healthd.runApp(Self.writer, ["save-batch"] + hidden)
            try #require(hiddenSave.status == 0, "\(hiddenSave)")
            let step = try await healthd.runApp(Self.reader, ["save", Self.steps, "1", "count", "\(now + stop)", "\(now + stop + 1)"])
            try #require(step.status == 0, "\(step)")
            let status = await healthd.terminate()
            #expect(status == 0, "stop \(stop): healthd exited \(status); its log ends: \(healthd.log.suffix(1_500))")
            for app in apps { app.kill() }
            observer.kill()
        }

        try healthd.start()
        defer { healthd.stop() }
        let listed = try await healthd.healthctl(["log", "--app", Self.reader, "--json"])
        try #require(listed.status == 0, "\(listed)")
        let entries = try listed.stdout.split(separator: "\n").map { try JSONDecoder().decode(LoggedEntry.self, from: Data($0.utf8)) }
        let anchored = entries.filter { $0.action == "read" && $0.types.contains(Self.sleep) }
        #expect(anchored.count >= Self.queries * Self.stops,
                "\(anchored.count) read entries of the anchored queries for \(Self.queries) queries × \(Self.stops) stops; all entries: \(entries.map { "\($0.action) \($0.types)" })")
    }
}
