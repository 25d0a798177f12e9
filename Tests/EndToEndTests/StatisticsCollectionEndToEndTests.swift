import Foundation
import Testing

/// Statistics collections through the whole stack, in Europe/Berlin across the spring DST
/// change of 2026-03-29 (that day lasts 23 hours). Expected values worked out by hand.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StatisticsCollectionEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    /// Local midnights (Berlin) of 2026-03-28, -29 (23 h), -30 and -31, in UTC seconds.
    let march28 = 1_774_652_400, march29 = 1_774_738_800, march30 = 1_774_821_600, march31 = 1_774_908_000
    let april1 = 1_774_994_400

    func daily(_ broker: BrokerProcess, _ app: String, _ extra: [String] = []) async throws -> ProcessResult {
        try await broker.runApp(app, ["collection", steps, "--anchor", "\(march28)", "--interval", "day", "--zone", "Europe/Berlin",
                                      "--from", "\(march28)", "--to", "\(march31 + 43_200)", "--options", "sum"] + extra)
    }

    @Test func dailySumsAreMergedProratedAndFollowLocalMidnights() async throws {
        let broker = try BrokerProcess()
        let watch = try await broker.installClient("org.test.a-watch")
        let phone = try await broker.installClient("org.test.phone")
        let reader = try await broker.installClient("org.test.reader")
        for app in [watch, phone] { try await broker.set(app, "share", steps, allowed: true) }
        try await broker.set(reader, "read", steps, allowed: true)
        // Watch: 120 over 23:00–01:00 across the midnight starting Mar 29 → 60 + 60.
        // Phone: 90 over 00:30–01:30 on Mar 29, under the watch until 01:00; and 10 over
        // 23:30–00:30 across the midnight starting Mar 30 → 5 + 5.
        for (app, value, start, end) in [(watch, "120", march29 - 3_600, march29 + 3_600),
                                         (phone, "90", march29 + 1_800, march29 + 5_400),
                                         (phone, "10", march30 - 1_800, march30 + 1_800)] {
            let saved = try await broker.runApp(app, ["save", steps, value, "count", "\(start)", "\(end)"])
            #expect(saved.okValue != nil, "\(saved)")
        }

        // Watch first (its bundle identifier sorts first): Mar 29 = 60 + the phone's uncovered [01:00, 01:30) → 45 + 5.
        let merged = try await daily(broker, reader)
        #expect(merged.lines == ["stat \(march28) \(march29) sum=60.0", "stat \(march29) \(march30) sum=110.0",
                                 "stat \(march30) \(march31) sum=5.0", "stat \(march31) \(april1)", "ok 3"], "\(merged)")

        // Phone first: Mar 29 = 90 + the watch's uncovered [00:00, 00:30), 30 of its 120 min → 30, + 5.
        let reorder = try await broker.healthctl(["sources", "priority", steps, phone, watch])
        #expect(reorder.status == 0, "\(reorder)")
        let reversed = try await daily(broker, reader)
        #expect(Array(reversed.lines.prefix(3)) == ["stat \(march28) \(march29) sum=60.0", "stat \(march29) \(march30) sum=125.0",
                                                    "stat \(march30) \(march31) sum=5.0"], "\(reversed)")

        // By source: unmerged, each source's samples prorated on their own.
        let bySource = try await daily(broker, reader, ["--by-source"])
        #expect(Array(bySource.lines.prefix(4)) == ["stat \(march28) \(march29) sum=60.0", "source \(watch) sum=60.0",
                                                    "stat \(march29) \(march30) sum=125.0", "source \(phone) sum=95.0"], "\(bySource)")

        // Hours are absolute: the 23-hour day has 23 hourly intervals.
        let hours = try await broker.runApp(reader, ["collection", steps, "--anchor", "\(march29)", "--interval", "hour",
                                                     "--zone", "Europe/Berlin", "--from", "\(march29)", "--to", "\(march30 - 1)",
                                                     "--options", "sum"])
        #expect(hours.lines.filter { $0.hasPrefix("stat ") }.count == 23, "\(hours)")
    }

    @Test func aDeniedReadersCollectionHoldsOnlyItsOwnSamples() async throws {
        let broker = try BrokerProcess()
        let other = try await broker.installClient("org.test.other")
        let denied = try await broker.installClient("org.test.denied")
        for app in [other, denied] { try await broker.set(app, "share", steps, allowed: true) }
        try await broker.set(denied, "read", steps, allowed: false)
        _ = try await broker.runApp(other, ["save", steps, "500", "count", "\(march28 + 3_600)", "\(march28 + 7_200)"])
        _ = try await broker.runApp(denied, ["save", steps, "40", "count", "\(march29 + 3_600)", "\(march29 + 7_200)"])
        let own = try await daily(broker, denied)
        #expect(own.lines == ["stat \(march28) \(march29)", "stat \(march29) \(march30) sum=40.0",
                              "stat \(march30) \(march31)", "stat \(march31) \(april1)", "ok 1"], "\(own)")
    }

    @Test func anIntervalOfZeroIsRefusedNamingTheComponents() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.zero")
        let result = try await broker.runApp(app, ["collection", steps, "--anchor", "\(march28)", "--interval", "day", "--count", "0",
                                                   "--zone", "UTC", "--from", "\(march28)", "--to", "\(march29)", "--options", "sum"])
        #expect(result.errorCode == 3, "\(result)")
        #expect(result.stdout.contains("intervalComponents"), "\(result)")
    }
}
