import Foundation
import Testing

/// `health-sandbox run` hands the app its whole command line, however long: everything after
/// `--` goes past swift-argument-parser, whose `.postTerminator` array cost time quadratic in
/// the number of arguments (1,000 samples' 5,001 arguments: 5.8 s of CPU before anything was
/// launched, debug build; 4,000 samples: minutes — session 21 reviews saw a `save-batch` never
/// reach healthd). The cost is measured, not timed here; this checks that the split at `--`
/// loses, adds or reorders nothing: 1,500 samples (7,501 arguments, below bubblewrap's own limit
/// of 9,000) arrive, one UUID each, and are stored.
@Suite(.timeLimit(.minutes(10))) struct SandboxLongCommandEndToEndTests {
    static let mindful = "HKCategoryTypeIdentifierMindfulSession"

    @Test func aCommandOfThousandsOfArgumentsReachesTheAppWhole() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.long-command")
        try await broker.set(app, "share", Self.mindful, allowed: true)
        try await broker.set(app, "read", Self.mindful, allowed: true)
        let start = 1_767_225_600
        let count = 1_500
        let arguments = (0..<count).flatMap { index in
            ["--category", Self.mindful, "0", "\(start + index * 10)", "\(start + index * 10 + 5)"]
        }
        let saved = try await broker.runApp(app, ["save-batch"] + arguments, timeout: 120)
        let uuids = try #require(saved.okValue, "\(saved)").split(separator: " ")
        #expect(uuids.count == count, "\(saved.lines.suffix(3))")
        let stored = try await broker.healthctl(["samples", "mindfulSession"])
        #expect(stored.status == 0, "\(stored)")
        let rows = stored.stdout.split(separator: "\n").filter { $0.wholeMatch(of: /\d{4}-\d{2}-\d{2} .*/) != nil }
        #expect(rows.count == count,
                "\(stored.stdout.split(separator: "\n").prefix(3))")
    }
}
