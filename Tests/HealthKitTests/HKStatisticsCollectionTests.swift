import Foundation
@testable import HealthKit
import Testing

/// The SDK's side of statistics: interval components, options checked before sending, and
/// enumeration filling the intervals the broker sent nothing for.
@Suite(.timeLimit(.minutes(10))) struct HKStatisticsCollectionTests {
    let steps = HKQuantityType(.stepCount)
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Local midnights in Berlin of 2026-03-28, -29 (23 hours), -30.
    let march28: Int64 = 1_774_652_400, march29: Int64 = 1_774_738_800, march30: Int64 = 1_774_821_600

    func micros(_ seconds: Int64) -> Int64 { seconds * 1_000_000 }

    @Test func enumerationYieldsEveryIntervalAndStopsOnRequest() {
        let day29 = StatisticsResult(span: TimeSpan(start: micros(march29), end: micros(march30)), merged: StatisticsValues(sum: 110))
        let collection = HKStatisticsCollection(type: steps, results: [day29], anchor: Date(timeIntervalSince1970: Double(march28)),
                                                interval: StatisticsInterval(days: 1), timeZone: berlin, separateBySource: false)
        var seen: [(Date, Double?)] = []
        collection.enumerateStatistics(from: Date(timeIntervalSince1970: Double(march28 + 60)),
                                       to: Date(timeIntervalSince1970: Double(march30 + 60))) { statistics, _ in
            seen.append((statistics.startDate, statistics.sumQuantity()?.doubleValue(for: .count())))
        }
        #expect(seen.map(\.0) == [march28, march29, march30].map { Date(timeIntervalSince1970: Double($0)) })
        #expect(seen.map(\.1) == [nil, 110, nil])

        var count = 0
        collection.enumerateStatistics(from: Date(timeIntervalSince1970: Double(march28)),
                                       to: Date(timeIntervalSince1970: Double(march30))) { _, stop in
            count += 1
            stop.pointee = true
        }
        #expect(count == 1)
        #expect(collection.statistics(for: Date(timeIntervalSince1970: Double(march29 + 3_600)))?.sumQuantity()?.doubleValue(for: .count()) == 110)
        // Apple, HKStatisticsCollection.statistics(for:): "Returns the statistics object for the
        // time interval that contains the specified date" — for an interval without data that is an
        // HKStatistics spanning the interval whose quantities are nil, not nil.
        let empty = collection.statistics(for: Date(timeIntervalSince1970: Double(march28 + 3_600)))
        #expect(empty?.startDate == Date(timeIntervalSince1970: Double(march28)))
        #expect(empty?.endDate == Date(timeIntervalSince1970: Double(march29)))
        #expect(empty != nil && empty?.sumQuantity() == nil)
        #expect(collection.statistics().count == 1)
        #expect(collection.sources().isEmpty)  // not separated by source
    }

    @Test func perSourceValuesNeedSeparateBySource() {
        let result = StatisticsResult(span: TimeSpan(start: 0, end: 60_000_000), merged: StatisticsValues(sum: 105),
                                      bySource: [SourceStatistics(source: SourceRecord(bundleIdentifier: "org.watch", name: "Watch"),
                                                                  values: StatisticsValues(sum: 60))])
        let watch = HKSource(name: "Watch", bundleIdentifier: "org.watch")
        let separated = HKStatistics(type: steps, result: result, separateBySource: true)
        #expect(separated.sources == [watch])
        #expect(separated.sumQuantity(for: watch) == HKQuantity(unit: .count(), doubleValue: 60))
        #expect(separated.sumQuantity(for: HKSource(name: "Other", bundleIdentifier: "org.other")) == nil)
        let merged = HKStatistics(type: steps, result: result, separateBySource: false)
        #expect(merged.sources == nil)
        #expect(merged.sumQuantity(for: watch) == nil)
        #expect(merged.sumQuantity() == HKQuantity(unit: .count(), doubleValue: 105))
    }

    @Test func intervalComponentsMapToTheBrokersUnits() throws {
        #expect(try StatisticsInterval(DateComponents(day: 1)) == StatisticsInterval(days: 1))
        #expect(try StatisticsInterval(DateComponents(year: 1, month: 2)) == StatisticsInterval(months: 14))
        #expect(try StatisticsInterval(DateComponents(weekOfYear: 1)) == StatisticsInterval(weeks: 1))
        #expect(throws: HKError.self) { try StatisticsInterval(DateComponents(second: 30)) }
    }

    @Test func badQueriesFailBeforeAnythingIsSent() {
        let query = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .discreteAverage,
                                                anchorDate: Date(), intervalComponents: DateComponents(day: 1), timeZone: berlin)
        #expect(throws: HKError.self) { try query.spec.get() }
        let zero = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                               anchorDate: Date(), intervalComponents: DateComponents(day: 0), timeZone: berlin)
        #expect(throws: HKError.self) { try zero.spec.get() }
        let statistics = HKStatisticsQuery(quantityType: HKQuantityType(.heartRate), quantitySamplePredicate: nil,
                                           options: .cumulativeSum) { _, _, _ in }
        #expect(throws: HKError.self) { try statistics.spec.get() }
    }
}
