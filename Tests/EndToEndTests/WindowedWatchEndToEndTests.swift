import Foundation
import Testing

/// A reader whose grant is a window (`healthctl grant … --window`) keeps a statistics collection
/// running: a change it cannot see must send it nothing, exactly as in a store where that change
/// never happened (DESIGN.md §7.3). Before session 16 every wake-up of a windowed watch recomputed
/// the collection; the window had moved meanwhile, so a visible sample that had left it made the
/// result differ and an update went out at the moment of another app's hidden save — a real-time
/// detector of hidden writes (privacy review, session 16; `CollectionBasis.carriesOver`).
///
/// The window is 300 s: another app's visible sample 240 s old leaves it about 60 s into the
/// test (time enough for the query to start on a loaded machine). Then a hidden app saves a sample far outside the window; no update may follow. The
/// reader's own save then updates the collection, with the window as it is at that moment.
@Suite(.timeLimit(.minutes(10)), .serialized) struct WindowedWatchEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"

    func save(_ broker: BrokerProcess, _ app: String, _ value: Int, _ start: Int, _ end: Int) async throws {
        let saved = try await broker.runApp(app, ["save", steps, "\(value)", "count", "\(start)", "\(end)"])
        _ = try #require(saved.okValue, "\(saved)")
    }

    /// The step total of each delivery in `lines` (`stat … sum=V` lines, then `delivery …`).
    static func totals(_ lines: [String]) -> [Double] {
        var totals: [Double] = [], running = 0.0
        for line in lines {
            if let sum = line.split(separator: " ").first(where: { $0.hasPrefix("sum=") }), let value = Double(sum.dropFirst(4)) {
                running += value
            } else if line.hasPrefix("delivery ") {
                totals.append(running)
                running = 0
            }
        }
        return totals
    }

    @Test func aHiddenSaveSendsAWindowedWatchNothingAfterTheWindowMoved() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.window-reader")
        let visible = try await broker.installClient("org.test.window-visible")
        let hidden = try await broker.installClient("org.test.window-hidden")
        for app in [reader, visible, hidden] { try await broker.set(app, "share", steps, allowed: true) }
        let grant = try await broker.healthctl(["grant", reader, "read", steps, "--window", "300s"])
        #expect(grant.status == 0, "\(grant)")
        let now = Int(Date().timeIntervalSince1970)
        try await save(broker, visible, 10, now - 240, now - 239)   // leaves the window about 60 s from now
        try await save(broker, visible, 5, now - 2, now - 1)        // stays in it for the whole test

        let day = now - now % 86_400 - 86_400
        let query = try LiveApp(reader, ["collection-updates", steps, "--anchor", "\(day)", "--interval", "day",
                                         "--zone", "UTC", "--options", "sum", "--updates", "1"], adminSocket: broker.adminSocket)
        #expect(try await query.waitForLine("delivery initial -"), "\(query.lines)")
        let initial = Self.totals(query.lines)
        try #require(initial == [15], "the visible samples were both in the window when the query began: \(query.lines)")

        // Until the older visible sample has left the window.
        while Int(Date().timeIntervalSince1970) < now + 64 { try await Task.sleep(for: .milliseconds(200)) }
        // Hidden: 2026-01-01, far outside the window. It wakes the watch; it must send nothing.
        try await save(broker, hidden, 1_000, 1_767_225_600, 1_767_225_660)
        try await Task.sleep(for: .seconds(3))
        #expect(!query.lines.contains { $0.hasPrefix("delivery update") }, "an update followed a hidden save: \(query.lines)")

        // The reader's own save is a change it can see: the update holds the window as it is now.
        try await save(broker, reader, 1, now + 60, now + 61)
        let result = await query.finish()
        #expect(Self.totals(result.lines) == [15, 6], "\(result)")
        #expect(result.lines.last == "ok 2", "\(result)")
    }
}
