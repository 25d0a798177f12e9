public import Foundation

/// A date from the command line in ISO 8601: a calendar day (2024-05-01) or a date and time
/// (2024-05-01T08:30, 2024-05-01 08:30:15.5, 2024-05-01T08:30:00Z, …+02:00). Without a zone it
/// is read in the user's time zone. A day used as the end of a range means the end of that day,
/// so `--from 2024-05-01 --to 2024-05-01` covers the whole day.
public struct DateArgument: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case day(year: Int, month: Int, day: Int)
        /// `offsetSeconds` nil: local time in the zone the argument is resolved in.
        case dateTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                      nanosecond: Int, offsetSeconds: Int?)
    }

    public let text: String
    public let value: Value

    /// Dates are read as written: a typo is an error, never a guess.
    public init(parsing text: String) throws(DateArgumentError) {
        // ASCII digits only: `\d` would also match other scripts' digits ("٢٠٢٤"), which Int()
        // does not read, and a force unwrap of that trapped healthctl (issue 13).
        let pattern = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$/
        guard let match = text.wholeMatch(of: pattern) else { throw DateArgumentError(text: text, reason: .format) }
        func number(_ digits: Substring) throws(DateArgumentError) -> Int {
            guard let value = Int(digits) else { throw DateArgumentError(text: text, reason: .format) }
            return value
        }
        let (year, month, day) = (try number(match.1), try number(match.2), try number(match.3))
        guard let hourText = match.4, let minuteText = match.5 else {
            self.text = text
            self.value = .day(year: year, month: month, day: day)
            try checkExists()
            return
        }
        let nanosecond = try match.7.map { (fraction) throws(DateArgumentError) in
            try number(Substring(fraction.dropFirst().padding(toLength: 9, withPad: "0", startingAt: 0)))
        } ?? 0
        let second = try match.6.map { (digits) throws(DateArgumentError) in try number(digits) } ?? 0
        let (hour, minute) = (try number(hourText), try number(minuteText))
        self.text = text
        self.value = .dateTime(year: year, month: month, day: day, hour: hour, minute: minute,
                               second: second, nanosecond: nanosecond,
                               offsetSeconds: try match.8.map { zone throws(DateArgumentError) in try Self.offset(zone, in: text) })
        try checkExists()
    }

    /// The first instant the argument names. Parsing proved the date exists; the calendar can
    /// still decline one it cannot place in `timeZone`, and that is an error rather than a trap.
    public func start(in timeZone: TimeZone) throws(DateArgumentError) -> Date {
        guard let date = Self.calendar(timeZone).date(from: components(in: timeZone)) else {
            throw DateArgumentError(text: text, reason: .noSuchDate)
        }
        return date
    }

    /// Where a range ending at this argument stops: the next midnight for a day, the instant itself otherwise.
    public func end(in timeZone: TimeZone) throws(DateArgumentError) -> Date {
        let start = try start(in: timeZone)
        guard case .day = value else { return start }
        guard let next = Self.calendar(timeZone).date(byAdding: .day, value: 1, to: start) else {
            throw DateArgumentError(text: text, reason: .noSuchDate)
        }
        return next
    }

    private func components(in timeZone: TimeZone) -> DateComponents {
        switch value {
        case let .day(year, month, day):
            return DateComponents(timeZone: timeZone, year: year, month: month, day: day)
        case let .dateTime(year, month, day, hour, minute, second, nanosecond, offset):
            let zone = offset.flatMap { TimeZone(secondsFromGMT: $0) } ?? timeZone
            return DateComponents(timeZone: zone, year: year, month: month, day: day,
                                  hour: hour, minute: minute, second: second, nanosecond: nanosecond)
        }
    }

    /// Rejects dates the calendar would silently roll over (2024-02-30, 25:00).
    private func checkExists() throws(DateArgumentError) {
        let utc = TimeZone.gmt
        let wanted = components(in: utc)
        guard (0...23).contains(wanted.hour ?? 0), (0...59).contains(wanted.minute ?? 0), (0...59).contains(wanted.second ?? 0),
              let date = Self.calendar(utc).date(from: DateComponents(year: wanted.year, month: wanted.month, day: wanted.day)),
              Self.calendar(utc).dateComponents([.year, .month, .day], from: date)
                == DateComponents(year: wanted.year, month: wanted.month, day: wanted.day)
        else { throw DateArgumentError(text: text, reason: .noSuchDate) }
    }

    private static func offset(_ zone: Substring, in text: String) throws(DateArgumentError) -> Int {
        if zone == "Z" { return 0 }
        let digits = zone.dropFirst().filter(\.isASCII).filter(\.isNumber)
        guard let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), hours <= 18, minutes <= 59 else { throw DateArgumentError(text: text, reason: .noSuchDate) }
        return (zone.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

public struct DateArgumentError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable { case format, noSuchDate }
    public let text: String
    public let reason: Reason

    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .format: "'\(text)' is not an ISO 8601 date; write 2024-05-01, 2024-05-01T08:30 or 2024-05-01T08:30:00Z"
        case .noSuchDate: "'\(text)' is not a real date or time"
        }
    }
}
