public import Foundation
import HealthModel

/// The two date forms Apple Health exports use: `2016-04-18 08:25:32 -0700` (every export since
/// iOS 9) and the compact `20141021075510+0200` of iOS 8. Parsed by hand — a date per attribute,
/// several per record, makes DateFormatter the slowest part of an import — and strictly: a
/// field out of range is an error, never a rolled-over date.
public enum ExportDate {
    public static func parse(_ text: String) -> Date? {
        // Read in place: an array of the bytes was an allocation per date, three per record.
        var text = text
        return text.withUTF8(parse(bytes:))
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        switch bytes.count {
        case 25:  // yyyy-MM-dd HH:mm:ss ±hhmm
            guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: " ") else { return nil }
            return make(bytes, year: 0, month: 5, day: 8, hour: 11, minute: 14, second: 17, zone: 20)
        case 19:  // yyyyMMddHHmmss±hhmm
            return make(bytes, year: 0, month: 4, day: 6, hour: 8, minute: 10, second: 12, zone: 14)
        default:
            return nil
        }
    }

    private static func make(_ bytes: UnsafeBufferPointer<UInt8>, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                             zone: Int) -> Date? {
        guard let y = number(bytes, year, 4), let mo = number(bytes, month, 2), let d = number(bytes, day, 2),
              let h = number(bytes, hour, 2), let mi = number(bytes, minute, 2), let s = number(bytes, second, 2),
              let zh = number(bytes, zone + 1, 2), let zm = number(bytes, zone + 3, 2) else { return nil }
        let sign: Int
        switch bytes[zone] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard (1...12).contains(mo), (1...CivilDate.daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, s < 60,
              zh <= 14, zm < 60 else { return nil }
        let days = CivilDate.daysSinceEpoch(year: y, month: mo, day: d)
        let local = ((days * 24 + h) * 60 + mi) * 60 + s
        return Date(timeIntervalSince1970: TimeInterval(local - sign * (zh * 3600 + zm * 60)))
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension ExportDate {
    /// `2016-04-18 08:25:32 -0700`: the form every export since iOS 9 writes, in `timeZone` with
    /// its offset at that instant. Whole seconds, as Apple writes them; `parse` reads it back to
    /// the same second.
    public static func format(_ date: Date, in timeZone: TimeZone) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let offset = timeZone.secondsFromGMT(for: date)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        let sign = offset < 0 ? "-" : "+"
        let zone = abs(offset) / 60
        // A Gregorian calendar fills every component asked for; 0 only keeps this total.
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d %@%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, sign, zone / 60, zone % 60)
    }
}
