import Foundation
import Testing

/// A temporary read grant expiring under a long-running anchored query: healthd wakes the app's
/// queries at the expiry instant by itself (its log shows it, with nothing else happening), and
/// from then on the query runs under the app's own-samples scope — another app's save produces
/// no update, the app's own save does.
///
/// The set-up runs under a grant of an hour, so no machine is too slow for it; the expiry is an
/// explicit step after it (the grant shortened to 2 s), so nothing races the clock.
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
        let grant = try await broker.healthctl(["grant", reader, "read", sleep, "--for", "1h"])
        #expect(grant.status == 0, "\(grant)")

        let live = try LiveApp(reader, ["anchored", sleep, "--updates", "2"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("delivery initial 0 0"), "\(live.lines)")
        #expect(try await broker.runApp(writer, sleepSample(value: 1, minute: 1)).okValue != nil)
        #expect(try await live.waitForLine("delivery update 1 0"), "\(live.lines)")

        // The expiry step. Then no call, no save: healthd itself notices the expiry and wakes
        // the reader's queries (only its expiry scheduler logs this line).
        let shortened = try await broker.healthctl(["grant", reader, "read", sleep, "--for", "2s"])
        #expect(shortened.status == 0, "\(shortened)")
        #expect(try await broker.waitForLog("temporary grant expired"), "\(broker.log)")
        let expiredLine = broker.log.split(separator: "\n").first { $0.contains("temporary grant expired") }
        #expect(expiredLine?.contains(reader) == true, "the expiry logged is not the reader's: \(broker.log)")

        #expect(try await broker.runApp(writer, sleepSample(value: 2, minute: 2)).okValue != nil)
        #expect(try await broker.runApp(reader, sleepSample(value: 3, minute: 3)).okValue != nil)
        let result = await live.finish()
        #expect(result.okValue == "3", "\(result)")
        #expect(result.anchoredDeliveries.map(\.added) == [[], ["1"], ["3"]], "\(result)")
        #expect(result.anchoredDeliveries.last?.addedSources == [reader])
    }
}
