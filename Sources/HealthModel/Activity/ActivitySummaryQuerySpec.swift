public import Foundation

/// An HKActivitySummaryQuery as a value: the calendar days asked for and the time zone whose
/// days they are. HealthKit's predicate names days as date components of a calendar; the SDK
/// sends the calendar's time zone (`TimeZone.current` when it has none).
public struct ActivitySummaryQuerySpec: Hashable, Sendable {
    /// The first day asked for; nil: from the earliest day with data.
    public var firstDay: CalendarDay?
    /// The last day asked for, inclusive; nil: through the latest day with data.
    public var lastDay: CalendarDay?
    /// An IANA time zone identifier ("Europe/Berlin").
    public var timeZoneIdentifier: String

    public init(firstDay: CalendarDay? = nil, lastDay: CalendarDay? = nil, timeZoneIdentifier: String) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The time zone, after the checks every app gets the same answer to: a known time zone,
    /// days the store keeps (`SampleLimits.permittedDays`) and in order. The number of days is
    /// checked when the days are laid out (`ActivityDayGrid`), also before any data is read.
    ///
    /// The one check of the days an app or healthctl names: both services and the repository
    /// call it. The range keeps every day away from the Julian/Gregorian cutover Foundation's
    /// calendar has at 1582-10-15 (`CalendarDay` is proleptic Gregorian): 1582-10-14 … 10-15
    /// once ended healthd for a grantless app (`ActivitySummaryDayRangeEndToEndTests`).
    public func validatedTimeZone() throws(HKError) -> TimeZone {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else {
            throw HKError(.errorInvalidArgument, "unknown time zone \(timeZoneIdentifier.prefix(100))")
        }
        for day in [firstDay, lastDay].compactMap({ $0 }) where !SampleLimits.permittedDays.contains(day) {
            throw HKError(.errorInvalidArgument, "the activity summary predicate names the day \(day); days must lie "
                          + SampleLimits.permittedDaysDescription)
        }
        if let firstDay, let lastDay, lastDay < firstDay {
            throw HKError(.errorInvalidArgument, "the activity summary predicate ends (\(lastDay)) before it starts (\(firstDay))")
        }
        return zone
    }
}
