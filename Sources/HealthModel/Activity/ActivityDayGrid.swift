public import Foundation

/// Consecutive calendar days in one time zone, from local midnight to local midnight: 23 or 25
/// hours across a DST change. Built on the statistics `IntervalGrid` (daily intervals anchored
/// at the first day's midnight), so a summary's day is exactly a daily statistics interval.
public struct ActivityDayGrid: Sendable, Equatable {
    public let grid: IntervalGrid
    public let firstDay: CalendarDay
    public let timeZone: TimeZone

    /// The days `first` through `last`, inclusive. Throws `errorInvalidArgument` for more days
    /// than a collection may have intervals.
    public static func days(from first: CalendarDay, through last: CalendarDay, in timeZone: TimeZone) throws(HKError) -> ActivityDayGrid {
        let calendar = Self.calendar(timeZone)
        let start = try startOfDay(first, calendar)
        let lastStart = try startOfDay(max(first, last), calendar)
        // A calendar surprise is an error, never a trap: midnights out of order (Foundation's
        // Gregorian calendar has the Julian cutover of 1582-10-15, so 1582-10-14 once fell
        // after 10-15, the day count went negative and `TimeSpan` trapped in healthd).
        // `ActivitySummaryQuerySpec` keeps such days away; this holds for any caller.
        guard start <= lastStart else {
            throw HKError(.errorInvalidArgument, "the days \(first) through \(last) do not follow each other in the calendar of \(timeZone.identifier)")
        }
        // Checked here, in the words of days: the grid's own limit message suggests a longer
        // interval, which summaries (always one per day) do not have.
        let dayCount = (calendar.dateComponents([.day], from: start, to: lastStart).day ?? 0) + 1
        guard dayCount >= 1, dayCount <= StatisticsLimits.maxIntervals else {
            throw HKError(.errorInvalidArgument, "the query covers \(dayCount) days; at most "
                          + "\(StatisticsLimits.maxIntervals) days of activity summaries are computed at once — use a narrower date range")
        }
        let grid = try IntervalGrid.covering(try TimeSpan(checkedStart: start.microsecondsSince1970, end: lastStart.microsecondsSince1970),
                                             anchor: start, interval: StatisticsInterval(days: 1), timeZone: timeZone)
        return ActivityDayGrid(grid: grid, firstDay: first, timeZone: timeZone)
    }

    /// The days from the one holding `span.start` to the one holding its last instant.
    public static func covering(_ span: TimeSpan, in timeZone: TimeZone) throws(HKError) -> ActivityDayGrid {
        let last = max(span.start, span.end - 1)  // the end itself is not covered
        return try days(from: CalendarDay(containing: Date(microsecondsSince1970: span.start), in: timeZone),
                        through: CalendarDay(containing: Date(microsecondsSince1970: last), in: timeZone), in: timeZone)
    }

    public var count: Int { grid.count }

    /// From the first day's midnight to the midnight after the last day.
    public var span: TimeSpan { TimeSpan(start: grid.boundaries[0], end: grid.boundaries[grid.count]) }

    /// The calendar day of interval `index`.
    public func day(at index: Int) -> CalendarDay {
        CalendarDay(containing: Date(microsecondsSince1970: grid.boundaries[index]), in: timeZone)
    }

    /// Local midnight of `day`: the first instant of the day (in a zone whose clocks skip
    /// midnight, the first instant after the skipped hour). `CalendarDay` is proleptic
    /// Gregorian, Foundation's calendar Julian before 1582-10-15, so the two disagree about
    /// days before then (1582-10-10 is read as 10-20): `days` checks the order of what this
    /// returns rather than trusting it.
    static func startOfDay(_ day: CalendarDay, _ calendar: Calendar) throws(HKError) -> Date {
        let noon = DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)
        guard let date = calendar.date(from: noon) else {
            throw HKError(.errorInvalidArgument, "the day \(day) cannot be represented in the calendar")
        }
        return calendar.startOfDay(for: date)
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
