import Foundation
import Testing

/// Statistics through the whole stack: a real healthd and encrypted store, apps as separate
/// sandboxed processes using the SDK, the user setting source priority with healthctl.
/// Expected values are worked out by hand in the comments (times relative to `t`).
@Suite(.timeLimit(.minutes(10)), .serialized) struct StatisticsEndToEndTests {
    let steps = "HKQuantityTypeIdentifierStepCount"
    let heartRate = "HKQuantityTypeIdentifierHeartRate"
    let t = 1_774_000_000

    /// A watch saving 60 steps over [t, t+60) and then a phone saving 90 over [t+30, t+90), and
    /// a reader allowed to read steps.
    func stepsFromTwoSources(_ broker: BrokerProcess) async throws -> (watch: String, phone: String, reader: String) {
        let watch = try await broker.installClient("org.test.a-watch")
        let phone = try await broker.installClient("org.test.phone")
        let reader = try await broker.installClient("org.test.reader")
        for app in [watch, phone] { try await broker.set(app, "share", steps, allowed: true) }
        try await broker.set(reader, "read", steps, allowed: true)
        for (app, value, start, end) in [(watch, "60", t, t + 60), (phone, "90", t + 30, t + 90)] {
            let saved = try await broker.runApp(app, ["save", steps, value, "count", "\(start)", "\(end)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        return (watch, phone, reader)
    }

    @Test func overlappingSourcesMergeByPriorityAndHealthctlReordersThem() async throws {
        let broker = try BrokerProcess()
        let (watch, phone, reader) = try await stepsFromTwoSources(broker)

        // Default order: by bundle identifier, the watch's first. Watch 60 + phone's uncovered [t+60, t+90) → 45.
        let merged = try await broker.runApp(reader, ["statistics", steps, "--options", "sum", "--by-source"])
        #expect(merged.lines.first == "stat \(t) \(t + 90) sum=105.0", "\(merged)")
        #expect(Array(merged.lines.dropFirst().prefix(2)) == ["source \(watch) sum=60.0", "source \(phone) sum=90.0"])

        // Phone first: 90 + watch's uncovered [t, t+30) → 30.
        let reorder = try await broker.healthctl(["sources", "priority", steps, phone, watch])
        #expect(reorder.status == 0, "\(reorder)")
        let reversed = try await broker.runApp(reader, ["statistics", steps, "--options", "sum"])
        #expect(reversed.lines.first == "stat \(t) \(t + 90) sum=120.0", "\(reversed)")

        // A window [t+45, t+75) prorates: phone [t+45, t+75) of [t+30, t+90) → 45; the watch's
        // part [t+45, t+60) is covered by the phone.
        let window = try await broker.runApp(reader, ["statistics", steps, "--options", "sum",
                                                      "--start", "\(t + 45)", "--end", "\(t + 75)"])
        #expect(window.lines.first == "stat \(t + 45) \(t + 75) sum=45.0", "\(window)")

        let reset = try await broker.healthctl(["sources", "priority", steps, "--reset"])
        #expect(reset.status == 0, "\(reset)")
        let restored = try await broker.runApp(reader, ["statistics", steps, "--options", "sum"])
        #expect(restored.lines.first == "stat \(t) \(t + 90) sum=105.0", "\(restored)")
    }

    @Test func aDeniedReaderGetsTheStatisticsOfItsOwnSamplesOnly() async throws {
        let broker = try BrokerProcess()
        _ = try await stepsFromTwoSources(broker)
        let denied = try await broker.installClient("org.test.denied")
        try await broker.set(denied, "share", steps, allowed: true)
        try await broker.set(denied, "read", steps, allowed: false)

        // Before it saves anything: no data, exactly as in an empty store.
        let empty = try await broker.runApp(denied, ["statistics", steps, "--options", "sum"])
        #expect(empty.errorCode == 11, "\(empty)")  // errorNoData
        let neverAsked = try await broker.installClient("org.test.neverasked")
        #expect(try await broker.runApp(neverAsked, ["statistics", steps, "--options", "sum"]).stdout == empty.stdout)

        // 30 steps over [t+10, t+40), overlapping both hidden sources: counted whole, alone.
        _ = try await broker.runApp(denied, ["save", steps, "30", "count", "\(t + 10)", "\(t + 40)"])
        let own = try await broker.runApp(denied, ["statistics", steps, "--options", "sum,duration,recent", "--by-source"])
        #expect(own.lines == ["stat \(t + 10) \(t + 40) sum=30.0 recent=30.0@\(t + 10)-\(t + 40) duration=30.0",
                              "source \(denied) sum=30.0 recent=30.0@\(t + 10)-\(t + 40) duration=30.0", "ok 1"], "\(own)")
    }

    @Test func discreteStatisticsAverageEverySource() async throws {
        let broker = try BrokerProcess()
        let strap = try await broker.installClient("org.test.strap")
        let watch = try await broker.installClient("org.test.hrwatch")
        for app in [strap, watch] {
            try await broker.set(app, "share", heartRate, allowed: true)
            try await broker.set(app, "read", heartRate, allowed: true)
        }
        // Time-weighted: strap 60 bpm over 60 s, watch 90 bpm over 120 s → (3600 + 10800) / 180 = 80.
        _ = try await broker.runApp(strap, ["save", heartRate, "60", "count/min", "\(t)", "\(t + 60)"])
        _ = try await broker.runApp(watch, ["save", heartRate, "90", "count/min", "\(t + 30)", "\(t + 150)"])
        let result = try await broker.runApp(strap, ["statistics", heartRate, "--options", "avg,min,max,recent",
                                                     "--unit", "count/min"])
        #expect(result.lines.first == "stat \(t) \(t + 150) avg=80.0 min=60.0 max=90.0 recent=90.0@\(t + 30)-\(t + 150)", "\(result)")
    }

    @Test func optionsThatDoNotFitTheTypeAreRefusedWhateverTheData() async throws {
        let broker = try BrokerProcess()
        let (_, _, reader) = try await stepsFromTwoSources(broker)
        let stranger = try await broker.installClient("org.test.stranger")
        for app in [reader, stranger] {
            let refused = try await broker.runApp(app, ["statistics", steps, "--options", "avg"])
            #expect(refused.errorCode == 3, "\(refused)")
            #expect(refused.stdout.contains(
                "Statistics option HKStatisticsOptionDiscreteAverage is not compatible with cumulative data type \(steps)"))
        }
        let sum = try await broker.runApp(stranger, ["statistics", heartRate, "--options", "sum"])
        #expect(sum.stdout.contains("HKStatisticsOptionCumulativeSum is not compatible with discrete data type \(heartRate)"), "\(sum)")
    }
}
