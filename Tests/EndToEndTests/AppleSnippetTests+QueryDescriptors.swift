import Foundation
import HealthModel
import Testing
import TestSupport

/// HKSampleQuery over several query descriptors (Tests/EndToEndClient/QueryDescriptorSnippets.swift).
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hksamplequery/init(querydescriptors:limit:resultshandler:):
    /// samples matching any descriptor (each with its own type and predicate), `limit` counting
    /// across all of them. A descriptor for a type the app may not read finds nothing, without
    /// an error (HealthKit hides what an app may not read); granting the read (one change) makes
    /// the same query find it.
    @Test func oneQueryOverSeveralDescriptorsLimitsAcrossThemAndHidesUnreadableTypes() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.descriptors-limit")
        let other = try await broker.installClient("org.test.descriptors-saver")
        let saves: [(String, String, String)] = [
            (steps, "50", "count"), (steps, "150", "count"), (steps, "250", "count"),
            ("HKQuantityTypeIdentifierHeartRate", "60", "count/min"), ("HKQuantityTypeIdentifierHeartRate", "70", "count/min"),
            ("HKQuantityTypeIdentifierBodyMass", "70", "kg"),
        ]
        for (index, (type, value, unit)) in saves.enumerated() {
            try await broker.set(other, "share", type, allowed: true)
            let start = 1_700_000_000 + index * 600
            let saved = try await broker.runApp(other, ["save", type, value, unit, "\(start)", "\(start + 60)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        try await broker.set(app, "read", steps, allowed: true)
        try await broker.set(app, "read", "HKQuantityTypeIdentifierHeartRate", allowed: true)
        try await broker.set(app, "read", "HKQuantityTypeIdentifierBodyMass", allowed: false)

        let denied = try await broker.runApp(app, ["snippet", "descriptors-limit"])
        #expect(denied.okValue == "4 3", "\(denied)")
        #expect(denied.lines.contains("all 2 2 0"), "\(denied)")

        try await broker.set(app, "read", "HKQuantityTypeIdentifierBodyMass", allowed: true)
        let granted = try await broker.runApp(app, ["snippet", "descriptors-limit"])
        #expect(granted.okValue == "5 3", "\(granted)")
        #expect(granted.lines.contains("all 2 2 1"), "\(granted)")
    }
}

extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hksamplequerydescriptor with
    /// `HKSamplePredicate.correlation(type:)`: correlations sort by `\.startDate` and
    /// `\.endDate` as any sample (issue 15.5), here through a real broker. Saved out of time
    /// order (120 mmHg at +600 s, 130 at +0 s, 110 at +1,200 s), so neither the save order nor
    /// the values give the expected orders.
    @Test func correlationDescriptorsSortByStartAndEndDate() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.correlations-by-date")
        // A correlation is shared through its members' types (apps are never granted correlation types).
        for type in ["HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"] {
            try await broker.set(app, "share", type, allowed: true)
        }
        for (systolic, time) in [("120", 1_700_000_600), ("130", 1_700_000_000), ("110", 1_700_001_200)] {
            let saved = try await broker.runApp(app, ["save-blood-pressure", systolic, "80", "\(time)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        let result = try await broker.runApp(app, ["snippet", "correlations-by-date"])
        #expect(result.okValue == "110,120,130 130,120", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkstatisticscollection/statistics(for:) for
    /// a day without samples (issue 15.2), through a real broker: an HKStatistics spanning that
    /// day whose sum is nil — not nil itself.
    @Test func theStatisticsOfAnEmptyIntervalExistWithoutQuantities() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.empty-interval")
        try await broker.set(app, "share", steps, allowed: true)
        for start in [1_699_999_200 + 3600, 1_699_999_200 + 2 * 86_400 + 3600] {
            let saved = try await broker.runApp(app, ["save", steps, "100", "count", "\(start)", "\(start + 60)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        let result = try await broker.runApp(app, ["snippet", "empty-interval-statistics"])
        #expect(result.okValue != nil, "\(result)")
        #expect(result.lines.contains("day1 100.0"), "\(result)")
        #expect(result.lines.contains("day2 nil \(1_699_999_200 + 86_400) \(1_699_999_200 + 2 * 86_400)"), "\(result)")
    }
}
