import Foundation

/// The length of one interval of a statistics collection — the `intervalComponents` HealthKit
/// takes as `DateComponents` — restricted to the units a collection is built from: minutes,
/// hours, days, weeks and months. Several may be combined (1 day 12 hours).
public struct StatisticsInterval: Hashable, Sendable, CustomStringConvertible {
    public var minutes: Int
    public var hours: Int
    public var days: Int
    public var weeks: Int
    public var months: Int

    public init(minutes: Int = 0, hours: Int = 0, days: Int = 0, weeks: Int = 0, months: Int = 0) {
        self.minutes = minutes
        self.hours = hours
        self.days = days
        self.weeks = weeks
        self.months = months
    }

    /// The largest count of one unit accepted; beyond it intervals would run past the dates the
    /// store accepts (1900–2200) anyway.
    static let maxCount = 100_000

    /// Throws `errorInvalidArgument` unless every count is between 0 and `maxCount` and at
    /// least one is positive.
    public func validate() throws(HKError) {
        let counts = [minutes, hours, days, weeks, months]
        guard counts.allSatisfy({ (0...Self.maxCount).contains($0) }), counts.contains(where: { $0 > 0 }) else {
            throw HKError(.errorInvalidArgument, "intervalComponents must set a positive number of minutes, hours, days, "
                          + "weeks or months (each at most \(Self.maxCount)); got \(self)")
        }
    }

    /// Minutes and hours only: every interval is the same length of absolute time, so a day
    /// of hourly intervals at a DST change has 23 or 25 of them.
    var isFixedLength: Bool { days == 0 && weeks == 0 && months == 0 }

    /// The length in seconds of a fixed-length interval, or an average one otherwise (to guess
    /// which interval holds a date before the calendar settles it).
    var approximateSeconds: Double {
        Double(minutes) * 60 + Double(hours) * 3_600 + Double(days) * 86_400 + Double(weeks) * 604_800
            + Double(months) * 2_629_746  // the Gregorian average month
    }

    /// `count` intervals as calendar components.
    func components(times count: Int) -> DateComponents {
        DateComponents(month: months * count, day: days * count + weeks * 7 * count,
                       hour: hours * count, minute: minutes * count)
    }

    public var description: String {
        let parts = [(months, "month"), (weeks, "week"), (days, "day"), (hours, "hour"), (minutes, "minute")]
            .filter { $0.0 != 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return parts.isEmpty ? "no interval" : parts.joined(separator: " ")
    }
}
