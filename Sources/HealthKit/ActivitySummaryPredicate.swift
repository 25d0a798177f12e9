import Foundation

/// The `NSPredicate` of `HKQuery.predicate(forActivitySummariesBetweenStart:end:)` and
/// `predicateForActivitySummary(with:)`: calendar days, inclusive, read in the components'
/// calendar and its time zone (the current ones when the components name none). Only these
/// predicates select activity summaries.
final class ActivitySummaryPredicate: NSPredicate {
    let firstDay: CalendarDay
    let lastDay: CalendarDay
    let timeZone: TimeZone

    /// nil unless both components name a day (year, month and day) in their calendar.
    init?(start: DateComponents, end: DateComponents) {
        let calendar = start.calendar ?? end.calendar ?? Calendar.current
        guard let first = Self.day(start, calendar), let last = Self.day(end, calendar) else { return nil }
        firstDay = first
        lastDay = last
        timeZone = calendar.timeZone
        super.init(value: true)
    }

    required init?(coder: NSCoder) {
        nil  // never archived: the days travel in the query request
    }

    /// The Gregorian day `components` name in `calendar` (which may be another calendar).
    private static func day(_ components: DateComponents, _ calendar: Calendar) -> CalendarDay? {
        let calendar = components.calendar ?? calendar
        guard components.year != nil, components.month != nil, components.day != nil,
              let noon = calendar.date(from: DateComponents(era: components.era, year: components.year,
                                                            month: components.month, day: components.day, hour: 12)) else {
            return nil
        }
        return CalendarDay(containing: noon, in: calendar.timeZone)
    }

    /// An `HKActivitySummary` on one of the days matches.
    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let summary = object as? HKActivitySummary, let day = summary.day else { return false }
        return firstDay <= day && day <= lastDay
    }

    override func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    override var predicateFormat: String { "activity summaries from \(firstDay) through \(lastDay) in \(timeZone.identifier)" }
    override var description: String { predicateFormat }
}

extension HKQuery {
    /// Activity summaries of the days from `startDateComponents` through `endDateComponents`,
    /// both included. Each must name a year, month and day; set `calendar` (whose time zone
    /// decides where days begin) — without one, the current calendar is used. Other components
    /// make a predicate that fails the query with `errorInvalidArgument`.
    public static func predicate(forActivitySummariesBetweenStart startDateComponents: DateComponents,
                                 end endDateComponents: DateComponents) -> NSPredicate {
        ActivitySummaryPredicate(start: startDateComponents, end: endDateComponents)
            ?? UnusablePredicate(HKError(.errorInvalidArgument, "activity summary date components need a year, month and day"))
    }

    /// The activity summary of one day.
    public static func predicateForActivitySummary(with dateComponents: DateComponents) -> NSPredicate {
        predicate(forActivitySummariesBetweenStart: dateComponents, end: dateComponents)
    }
}
