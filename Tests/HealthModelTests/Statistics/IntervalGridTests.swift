import Foundation
import Testing
@testable import HealthModel

/// Interval boundaries in named time zones, across DST changes. Expected instants are UTC
/// seconds worked out from the zones' rules (`date -u -d … +%s`).
@Suite(.timeLimit(.minutes(10))) struct IntervalGridTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let newYork = TimeZone(identifier: "America/New_York")!
    /// 2026-01-01 00:00 in Berlin (CET, UTC+1).
    let berlinNewYear = Date(timeIntervalSince1970: 1_767_222_000)

    func grid(_ start: Int64, _ end: Int64, anchor: Date, _ interval: StatisticsInterval, _ zone: TimeZone) throws -> IntervalGrid {
        try IntervalGrid.covering(TimeSpan(start: start * 1_000_000, end: end * 1_000_000),
                                  anchor: anchor, interval: interval, timeZone: zone)
    }

    func seconds(_ grid: IntervalGrid) -> [Int64] { grid.boundaries.map { $0 / 1_000_000 } }

    @Test func aBerlinDayIs23HoursWhenClocksGoForward() throws {
        // 2026-03-29: 02:00 CET becomes 03:00 CEST. Midnight to midnight: 23:00Z to 22:00Z.
        let days = try grid(1_774_785_600, 1_774_785_600, anchor: berlinNewYear, StatisticsInterval(days: 1), berlin)
        #expect(seconds(days) == [1_774_738_800, 1_774_821_600])
        #expect(days.span(at: 0).length == 23 * 3_600 * 1_000_000)
        #expect(days.firstIndex == 87)  // Jan 1 is day 0; Mar 29 is day 31 + 28 + 28 = 87
    }

    @Test func aBerlinDayIs25HoursWhenClocksGoBack() throws {
        // 2026-10-25: 03:00 CEST becomes 02:00 CET. Midnight to midnight: 22:00Z to 23:00Z.
        let days = try grid(1_792_929_600, 1_792_929_600, anchor: berlinNewYear, StatisticsInterval(days: 1), berlin)
        #expect(seconds(days) == [1_792_879_200, 1_792_969_200])
        #expect(days.span(at: 0).length == 25 * 3_600 * 1_000_000)
    }

    @Test func newYorkDaysAcrossBothChanges() throws {
        let anchor = Date(timeIntervalSince1970: 1_767_243_600)  // 2026-01-01 00:00 EST (05:00Z)
        let spring = try grid(1_772_982_000, 1_772_982_000, anchor: anchor, StatisticsInterval(days: 1), newYork)
        #expect(seconds(spring) == [1_772_946_000, 1_773_028_800])  // 2026-03-08: 05:00Z to 04:00Z, 23 h
        let autumn = try grid(1_793_548_800, 1_793_548_800, anchor: anchor, StatisticsInterval(days: 1), newYork)
        #expect(seconds(autumn) == [1_793_505_600, 1_793_595_600])  // 2026-11-01: 04:00Z to 05:00Z, 25 h
    }

    @Test func hoursAreAbsoluteSoTheShortDayHas23() throws {
        // The Berlin day of 2026-03-29 cut into hours from its midnight.
        let hours = try grid(1_774_738_800, 1_774_821_600 - 1, anchor: berlinNewYear, StatisticsInterval(hours: 1), berlin)
        #expect(hours.count == 23)
        let lengths = zip(hours.boundaries, hours.boundaries.dropFirst()).map { $1 - $0 }
        #expect(lengths == Array(repeating: 3_600 * 1_000_000, count: 23), "\(hours.boundaries)")
    }

    @Test func monthsFollowTheCalendarFromTheAnchorWithoutDrift() throws {
        let utc = TimeZone(identifier: "UTC")!
        let january31 = Date(timeIntervalSince1970: 1_769_817_600)  // 2026-01-31 00:00Z
        let months = try grid(1_769_817_600, 1_774_915_200, anchor: january31, StatisticsInterval(months: 1), utc)
        // Jan 31, Feb 28 (clamped), Mar 31 (not Mar 28), Apr 30.
        #expect(seconds(months) == [1_769_817_600, 1_772_236_800, 1_774_915_200, 1_777_507_200])
    }

    @Test func weeksAreSevenCalendarDays() throws {
        // Weeks anchored on Monday 2026-03-23 00:00 Berlin (23:00Z the day before); the week
        // holding the spring change is 7 × 24 − 1 hours long.
        let monday = Date(timeIntervalSince1970: 1_774_220_400)
        let weeks = try grid(1_774_785_600, 1_774_785_600, anchor: monday, StatisticsInterval(weeks: 1), berlin)
        #expect(weeks.span(at: 0).length == (7 * 24 - 1) * 3_600 * 1_000_000)
    }

    @Test func intervalsBeforeTheAnchorCountBackwards() throws {
        let days = try grid(1_767_139_200, 1_767_139_200, anchor: berlinNewYear, StatisticsInterval(days: 1), berlin)
        #expect(days.firstIndex == -1)
        #expect(seconds(days) == [1_767_135_600, 1_767_222_000])  // 2025-12-31 in Berlin
    }

    @Test func lookupAndOverlap() throws {
        let grid = IntervalGrid(boundaries: [0, 10, 20, 30])
        #expect(grid.index(containing: -1) == nil)
        #expect(grid.index(containing: 0) == 0)
        #expect(grid.index(containing: 19) == 1)
        #expect(grid.index(containing: 30) == nil)
        var overlaps: [[Int64]] = []
        grid.forEachOverlap(of: TimeSpan(start: 5, end: 25)) { overlaps.append([Int64($0), $1]) }
        #expect(overlaps == [[0, 5], [1, 10], [2, 5]])
    }

    @Test func tooManyIntervalsAreRefusedBeforeAnyIsComputed() {
        #expect(throws: HKError.self) {
            try grid(0, 2 * 365 * 86_400, anchor: Date(timeIntervalSince1970: 0), StatisticsInterval(minutes: 1), berlin)
        }
    }

    @Test func invalidIntervalsAreRefused() {
        for interval in [StatisticsInterval(), StatisticsInterval(days: -1), StatisticsInterval(hours: 1_000_000)] {
            #expect(throws: HKError.self) { try interval.validate() }
        }
        #expect(StatisticsInterval(hours: 12, days: 1).description == "1 day 12 hours")
    }
}
