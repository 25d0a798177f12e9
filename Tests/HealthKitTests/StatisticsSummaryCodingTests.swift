import Foundation
import Testing
@testable import HealthKit
import HealthWire

/// Apps cache statistics (a chart, a widget's last value) and activity rings: Apple's
/// `HKStatistics` and `HKActivitySummary` are `NSObject`s conforming to `NSSecureCoding`, and
/// `HKStatisticsCollection` and `HKQuery` are plain `NSObject`s (developer.apple.com,
/// "Inherits From" / "Conforms To"). Round trips through Apple's archiving snippet keep every
/// value; a tampered archive decodes as nil without trapping. Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct StatisticsSummaryCodingTests {
    static let start: Int64 = 1_700_000_000_000_000
    static let hour: Int64 = 3_600_000_000
    static let walk = SourceRecord(bundleIdentifier: "org.example.walk", name: "Walk")
    static let watch = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch")

    static func values(_ base: Double) -> StatisticsValues {
        StatisticsValues(sum: base, average: base / 2, minimum: -base, maximum: base * 3,
                         mostRecent: .init(value: base + 1, span: TimeSpan(start: start + 10, end: start + 20)), duration: 42.5)
    }

    static func statistics(separate: Bool) -> HKStatistics {
        let bySource = separate ? [SourceStatistics(source: watch, values: values(7)), SourceStatistics(source: walk, values: values(3))] : []
        return HKStatistics(type: HKQuantityType(.stepCount),
                            result: StatisticsResult(span: TimeSpan(start: start, end: start + hour), merged: values(10), bySource: bySource),
                            separateBySource: separate)
    }

    private func expectSameValues(_ restored: HKStatistics, _ original: HKStatistics, for source: HKSource? = nil) {
        #expect(restored.quantityType == original.quantityType)
        #expect(restored.startDate == original.startDate && restored.endDate == original.endDate)
        if let source {
            #expect(restored.sumQuantity(for: source) == original.sumQuantity(for: source))
            #expect(restored.averageQuantity(for: source) == original.averageQuantity(for: source))
            #expect(restored.mostRecentQuantityDateInterval(for: source) == original.mostRecentQuantityDateInterval(for: source))
        } else {
            #expect(restored.sumQuantity() == original.sumQuantity() && restored.averageQuantity() == original.averageQuantity())
            #expect(restored.minimumQuantity() == original.minimumQuantity() && restored.maximumQuantity() == original.maximumQuantity())
            #expect(restored.mostRecentQuantity() == original.mostRecentQuantity())
            #expect(restored.mostRecentQuantityDateInterval() == original.mostRecentQuantityDateInterval())
            #expect(restored.duration() == original.duration())
        }
    }

    // MARK: HKStatistics

    @Test(arguments: [false, true]) func statisticsKeepTheirValuesAndSources(_ separate: Bool) throws {
        let original = Self.statistics(separate: separate)
        let restored = try SecureArchive.roundTrip(original)
        expectSameValues(restored, original)
        #expect(restored.sumQuantity() == HKQuantity(unit: .count(), doubleValue: 10))
        #expect(restored.sources == original.sources)
        if separate {
            #expect(restored.sources?.map(\.bundleIdentifier) == ["org.example.watch", "org.example.walk"])
            for source in try #require(original.sources) { expectSameValues(restored, original, for: source) }
            #expect(restored.sumQuantity(for: HKSource(name: "Walk", bundleIdentifier: "org.example.walk")) == HKQuantity(unit: .count(), doubleValue: 3))
        }
    }

    /// An interval without data (its quantities nil) and extreme values: what the parser carries.
    @Test func anEmptyIntervalAndExtremeValuesSurvive() throws {
        let empty = HKStatistics(type: HKQuantityType(.heartRate), empty: TimeSpan(start: Self.start, end: Self.start), separateBySource: false)
        let restoredEmpty = try SecureArchive.roundTrip(empty)
        #expect(restoredEmpty.sumQuantity() == nil && restoredEmpty.averageQuantity() == nil && restoredEmpty.mostRecentQuantity() == nil)
        #expect(restoredEmpty.startDate == empty.startDate && restoredEmpty.quantityType == HKQuantityType(.heartRate))
        let extreme = HKStatistics(type: HKQuantityType(.activeEnergyBurned),
                                   result: StatisticsResult(span: TimeSpan(start: 0, end: Int64.max / 2),
                                                            merged: StatisticsValues(sum: 1e300, minimum: -0.0, maximum: Double.leastNonzeroMagnitude)),
                                   separateBySource: false)
        expectSameValues(try SecureArchive.roundTrip(extreme), extreme)
    }

    @Test func aTamperedStatisticsArchiveIsNil() throws {
        let original = Self.statistics(separate: true)
        let twoIntervals = StatisticsBatch([original.result, original.result]).wireBytes()
        let cases: [(String, NSObject?)] = [
            ("quantityType", NSString(string: "HKQuantityTypeIdentifierNotAType")),
            ("quantityType", NSString(string: HKCategoryTypeIdentifier.sleepAnalysis.rawValue)),  // not a quantity type
            ("quantityType", NSNumber(value: 1)),
            ("quantityType", nil),
            ("separateBySource", NSString(string: "yes")),
            ("separateBySource", nil),
            ("statistics", Data([0xFF, 0xFF, 0xFF]) as NSData),
            ("statistics", Data(twoIntervals) as NSData),
            ("statistics", Data() as NSData),  // no interval at all
            ("statistics", NSString(string: "bytes")),
            ("statistics", nil),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(original, key, bad) == nil, "\(key)") }
    }

    // MARK: HKActivitySummary

    @Test func anAppMadeSummaryKeepsEveryRingAndItsModeAndPause() throws {
        let summary = HKActivitySummary()
        summary.activeEnergyBurned = HKQuantity(unit: .largeCalorie(), doubleValue: 512.5)
        summary.activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 600)
        summary.appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 31)
        summary.appleMoveTimeGoal = HKQuantity(unit: .hour(), doubleValue: 1)
        summary.appleExerciseTime = HKQuantity(unit: .second(), doubleValue: 1_800)
        summary.appleExerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 30)
        summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: 9)
        summary.appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        summary.activityMoveMode = .appleMoveTime
        summary.isPaused = true
        let restored = try SecureArchive.roundTrip(summary)
        for path in [\HKActivitySummary.activeEnergyBurned, \.activeEnergyBurnedGoal, \.appleMoveTime, \.appleMoveTimeGoal,
                     \.appleExerciseTime, \.appleExerciseTimeGoal, \.appleStandHours, \.appleStandHoursGoal] {
            #expect(restored[keyPath: path] == summary[keyPath: path])
        }
        #expect(restored.activityMoveMode == .appleMoveTime && restored.isPaused)
        #expect(restored.dateComponents(for: Calendar(identifier: .gregorian)) == DateComponents())
    }

    @Test func aFetchedSummaryKeepsItsDayInItsTimeZone() throws {
        let zone = try #require(TimeZone(identifier: "Pacific/Kiritimati"))  // UTC+14: the day differs from UTC's
        let day = try #require(CalendarDay(year: 2024, month: 2, day: 29))
        let summary = HKActivitySummary(ActivitySummaryRecord(day: day, totals: ActivityTotals(activeEnergyBurned: 300, standHours: 4),
                                                               goals: ActivityGoals(moveKilocalories: 500)), timeZone: zone)
        let restored = try SecureArchive.roundTrip(summary)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let components = restored.dateComponents(for: calendar)
        #expect(components.year == 2024 && components.month == 2 && components.day == 29)
        #expect(components == summary.dateComponents(for: calendar))
        #expect(restored.activeEnergyBurned == summary.activeEnergyBurned && restored.appleStandHours == summary.appleStandHours)
    }

    @Test func aTamperedSummaryArchiveIsNil() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let summary = HKActivitySummary(ActivitySummaryRecord(day: try #require(CalendarDay(year: 2025, month: 3, day: 30)),
                                                               totals: ActivityTotals(exerciseMinutes: 20)), timeZone: zone)
        #expect(try SecureArchive.tampered(summary, "day.day", NSNumber(value: 30)) != nil)  // the control
        let cases: [(String, NSObject?)] = [
            ("activeEnergyBurned.unit", NSString(string: "m")),  // a distance where energy belongs
            ("activeEnergyBurned.unit", NSString(string: "not a unit")),
            ("appleExerciseTimeGoal.unit", NSString(string: "count")),
            ("appleStandHours.unit", NSString(string: "min")),
            ("appleMoveTime.value", NSNumber(value: Double.nan)),
            ("appleMoveTime.value", NSNumber(value: Double.infinity)),
            ("appleMoveTime.value", NSString(string: "31")),
            ("appleMoveTime.value", nil),
            ("appleStandHoursGoal.unit", nil),
            ("activityMoveMode", NSNumber(value: 99)),
            ("activityMoveMode", nil),
            ("paused", nil),
            ("day.month", NSNumber(value: 2)),  // 30 February
            ("day.year", NSNumber(value: 1e300)),
            ("day.day", nil),
            ("timeZone", NSString(string: "Mars/Olympus_Mons")),
            ("timeZone", nil),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(summary, key, bad) == nil, "\(key)") }
    }

    // MARK: NSObject bases

    /// `HKStatisticsCollection` and `HKQuery` are `NSObject`s as Apple's: identity equality,
    /// usable where Foundation wants an object. (An ECG's `VoltageMeasurement` too, equal by value.)
    @Test func aCollectionAndAQueryAreNSObjects() throws {
        let collection = HKStatisticsCollection(type: HKQuantityType(.stepCount), results: [Self.statistics(separate: false).result],
                                                anchor: Date(timeIntervalSince1970: 0), interval: StatisticsInterval(hours: 1),
                                                timeZone: .current, separateBySource: false)
        let objects: [NSObject] = [collection, HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 1,
                                                             sortDescriptors: nil) { _, _, _ in }]
        #expect(objects[0].isEqual(collection) && !objects[0].isEqual(objects[1]))
        let query = try #require(objects[1] as? HKQuery)
        #expect(query.isEqual(objects[1]) && !query.isEqual(nil))
        let voltage = HKElectrocardiogram.VoltageMeasurement(timeSinceSampleStart: 0.5, volts: 0.001)
        let same = HKElectrocardiogram.VoltageMeasurement(timeSinceSampleStart: 0.5, volts: 0.001)
        let measurements: [NSObject] = [voltage, HKElectrocardiogram.VoltageMeasurement(timeSinceSampleStart: 0.5, volts: 0.002)]
        #expect(measurements[0].isEqual(same) && !measurements[0].isEqual(measurements[1]) && voltage.hash == same.hash)
        #expect(Set([voltage, same]).count == 1 && (voltage.copy() as? HKElectrocardiogram.VoltageMeasurement) == voltage)
    }
}
