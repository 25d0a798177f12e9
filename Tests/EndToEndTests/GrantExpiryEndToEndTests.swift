import Foundation
import Testing

/// A temporary read grant expiring under a long-running anchored query: healthd wakes the app's
/// queries at the expiry instant by itself (its log shows it, with nothing else happening), and
/// from then on the query runs under the app's own-samples scope — another app's save produces
/// no update, the app's own save does.
@Suite(.timeLimit(.minutes(10)), .serialized) struct GrantExpiryEndToEndTests {
    let sleep = "HKCategoryTypeIdentifierSleepAnalysis"

    func sleepSample(value: Int, minute: Int) -> [String] {
        let start = 1_700_000_000 + minute * 60
        return ["save-category", sleep, "\(value)", "\(start)", "\(start + 60)"]
    }

    @Test func anExpiringReadGrantRescopesARunningAnchoredQueryAtItsExpiry() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.expiring-reader")
        let writer = try await broker.installClient("org.test.other-writer")
        for app in [reader, writer] { try await broker.set(app, "share", sleep, allowed: true) }
        let grant = try await broker.healthctl(["grant", reader, "read", sleep, "--for", "5s"])
        let expiry = Date().addingTimeInterval(5)  // healthctl computed its expiry before returning
        #expect(grant.status == 0, "\(grant)")

        let live = try LiveApp(reader, ["anchored", sleep, "--updates", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 0 0"), "\(live.lines)")
        #expect(try await broker.runApp(writer, sleepSample(value: 1, minute: 1)).okValue != nil)
        #expect(try await live.waitForLine("delivery update 1 0"), "\(live.lines)")
        try #require(Date() < expiry, "the visible update must come before the grant expires; the machine is too slow for this test")

        // No call, no save: healthd itself notices the expiry and wakes the reader's queries.
        try await Task.sleep(for: .seconds(max(0, expiry.timeIntervalSinceNow)))
        let deadline = Date().addingTimeInterval(15)
        while !broker.log.contains("temporary grant expired"), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(broker.log.contains("temporary grant expired") && broker.log.contains(reader), "\(broker.log)")

        #expect(try await broker.runApp(writer, sleepSample(value: 2, minute: 2)).okValue != nil)
        #expect(try await broker.runApp(reader, sleepSample(value: 3, minute: 3)).okValue != nil)
        let result = await live.finish()
        #expect(result.okValue == "3", "\(result)")
        #expect(result.anchoredDeliveries.map(\.added) == [[], ["1"], ["3"]], "\(result)")
        #expect(result.anchoredDeliveries.last?.addedSources == [reader])
    }
}
