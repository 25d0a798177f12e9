public import Foundation

/// The bounds a saved sample must respect. HealthKit leaves these implementation-defined; these
/// are ours, fixed constants (not "now"-relative) so the SDK and the broker always agree.
public enum SampleLimits {
    /// HealthKit's `earliestPermittedSampleDate`: 1900-01-01T00:00:00Z. Older dates are almost
    /// always a unit mistake (seconds vs. milliseconds) or a zeroed field, not real history.
    public static let earliestPermittedSampleDate = Date(timeIntervalSince1970: -2_208_988_800)
    /// The latest date a sample may start or end: 2200-01-01T00:00:00Z. Future samples are
    /// legitimate (planned doses, forecasts), but not centuries ahead; this also keeps every date
    /// well inside the store's microsecond integers.
    public static let latestPermittedSampleDate = Date(timeIntervalSince1970: 7_258_118_400)
    /// The window every stored date lies in — sample dates, metadata dates, route timestamps,
    /// expirations — and how refusals state it.
    public static let permittedDates = earliestPermittedSampleDate...latestPermittedSampleDate
    public static let permittedDatesDescription = "between 1900-01-01 and 2200-01-01 (UTC)"
    /// The same window as calendar days, for what names days rather than instants (activity
    /// summary predicates): whatever the time zone, none of them is near Foundation's
    /// Julian/Gregorian cutover (1582-10-15), where `CalendarDay` and `Calendar` disagree.
    public static let permittedDays = CalendarDay(year: 1900, month: 1, day: 1)!...CalendarDay(year: 2200, month: 1, day: 1)!
    public static let permittedDaysDescription = "between 1900-01-01 and 2200-01-01"

    /// At most this many metadata entries per sample.
    public static let maximumMetadataEntries = 64
    /// A metadata key has 1 to this many UTF-8 bytes.
    public static let maximumMetadataKeyBytes = 256
    /// A string metadata value (and a sync identifier) has at most this many UTF-8 bytes.
    public static let maximumMetadataStringBytes = 4096
    /// Each text field of a sample's device (`HKDevice`: name, manufacturer, model, versions, local
    /// and UDI identifiers) and a contacts prescription's brand has at most this many UTF-8 bytes.
    /// Real ones are tens of bytes; counted in bytes, not characters, because one character can
    /// carry any number of combining marks.
    public static let maximumDeviceStringBytes = 1024
}
