import Foundation
import Testing
@testable import HealthModel

/// Session 21: the grid's own anchor bound, whatever the caller checked (healthd and the SDK
/// hold a collection's anchor to 1900–2200 in `StatisticsCollectionSpec.validate`). Called with
/// an anchor of Int64.min microseconds, `time - anchor` overflowed and trapped; one before about
/// 4713 BC is clamped by Foundation's calendar. An anchor outside the years 1–9999 is now
/// errorInvalidArgument naming the anchor; anchors at the limits still work.
@Suite(.timeLimit(.minutes(10))) struct IntervalGridExtremeAnchorTests {
    /// 2026-03-29 12:00 UTC, a sample's start.
    static let sample = TimeSpan(start: 1_774_785_600_000_000, end: 1_774_785_660_000_000)
    static let intervals = [StatisticsInterval(minutes: 1), StatisticsInterval(hours: 100_000), StatisticsInterval(days: 1),
                            StatisticsInterval(weeks: 100_000), StatisticsInterval(months: 1), StatisticsInterval(months: 100_000)]

    @Test(arguments: [Int64.min, Int64.min + 1, Int64.max, Int64.max - 1, -9_000_000_000_000_000_000, -300_000_000_000_000_000, 300_000_000_000_000_000])
    func anAnchorBeyondTheCalendarIsATypedError(_ micros: Int64) {
        for interval in Self.intervals {
            #expect {
                try IntervalGrid.covering(Self.sample, anchor: Date(microsecondsSince1970: micros), interval: interval,
                                          timeZone: TimeZone(identifier: "Europe/Berlin")!)
            } throws: { error in
                (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains("anchor") == true
            }
        }
        #expect(throws: HKError.self) {
            try IntervalGrid.covering(Self.sample, anchor: Date(timeIntervalSince1970: .nan), interval: StatisticsInterval(days: 1),
                                      timeZone: TimeZone(identifier: "UTC")!)
        }
    }

    @Test(arguments: [Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: BoundaryFunction.anchorSeconds.lowerBound),
                      Date(timeIntervalSince1970: BoundaryFunction.anchorSeconds.upperBound)])
    func anchorsAtTheLimitsGiveAGridOrTooManyIntervals(_ anchor: Date) throws {
        for interval in Self.intervals {
            do {
                let grid = try IntervalGrid.covering(Self.sample, anchor: anchor, interval: interval, timeZone: TimeZone(identifier: "UTC")!)
                #expect(grid.index(containing: Self.sample.start) != nil, "\(interval)")
            } catch {
                #expect(error.code == .errorInvalidArgument, "\(interval): \(error)")
            }
        }
    }
}
