public import Foundation

/// An ISO 8601 date and time from outside text — a SMART Health Card's FHIR `dateTime`, a route
/// GPX's `<time>` — read by hand, never by `ISO8601DateFormatter`: ICU's parser behind it traps
/// (SIGFPE) on a fractional second of about 34 digits, so one card file could end healthd
/// (red team, session 22, finding 1). Every such site calls this parser; nothing outside reaches
/// ICU's date parsing.
///
/// The one form read: `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)`, ASCII digits only, the fraction of 1
/// to 9 digits (nanoseconds; more is refused, not rounded), every field range-checked (years
/// 0001–9999, no 2021-02-30, no 24:00 or leap second, offsets up to ±14:59), at most `maxBytes`
/// long. The
/// instant is computed with arithmetic (days from the civil date), so its cost is bounded by the
/// length check and nothing it reads can loop or trap.
public enum ISO8601DateTime {
    /// The longest form is 35 bytes (`2024-05-02T05:00:00.123456789+14:00`).
    public static let maxBytes = 35

    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(parse(bytes:))
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20, bytes.count <= maxBytes,
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2) else { return nil }
        var index = 19
        var nanoseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, let digit = digit(bytes[index]) {
                digits += 1
                guard digits <= 9 else { return nil }
                nanoseconds = nanoseconds * 10 + digit
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanoseconds *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let zoneHours = number(bytes, index + 1, 2), let zoneMinutes = number(bytes, index + 4, 2),
                  zoneHours <= 14, zoneMinutes < 60 else { return nil }
            offset = (bytes[index] == UInt8(ascii: "-") ? -1 : 1) * (zoneHours * 3600 + zoneMinutes * 60)
        default:
            return nil
        }
        guard year >= 1, (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
              second < 60 else { return nil }
        let local = ((CivilDate.daysSinceEpoch(year: year, month: month, day: day) * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(local - offset) + TimeInterval(nanoseconds) / 1_000_000_000)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
