import Foundation
import HealthModel
import Testing
import TestSupport

/// `ISO8601DateTime`, the one parser of ISO 8601 date-times from outside text (card dates, GPX
/// times, healthctl's export record). ICU's `ISO8601DateFormatter` trapped (SIGFPE) on a fraction
/// of about 34 digits and killed healthd (red team, session 22, finding 1); this parser must never
/// trap, and what it accepts must be exactly the form it documents, at the instant a separate
/// computation (a regex and the Gregorian `Calendar`, no formatter) gives.
@Suite(.timeLimit(.minutes(10))) struct ISO8601DateTimeTests {
    @Test func theCrashingCardDateIsRefusedAndOrdinaryFormsRead() {
        let crashing = "2020-01-01T00:00:00." + String(repeating: "0", count: 34) + "1Z"
        #expect(ISO8601DateTime.parse(crashing) == nil)
        #expect(ISO8601DateTime.parse("2024-05-02T05:00:00." + String(repeating: "0", count: 40) + "1Z") == nil)
        #expect(ISO8601DateTime.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(ISO8601DateTime.parse("2021-01-29T00:00:00+01:00") == Date(timeIntervalSince1970: 1_611_874_800))
        #expect(ISO8601DateTime.parse("2024-05-02T05:00:00.5Z") == Date(timeIntervalSince1970: 1_714_626_000.5))
        let far = ISO8601DateTime.parse("2024-05-02T05:00:00.123456789-14:59")?.timeIntervalSince1970 ?? 0
        #expect(abs(far - (1_714_626_000 + 14 * 3600 + 59 * 60 + 0.123456789)) < 1e-6)
        for refused in ["2021-02-29T00:00:00Z", "2024-05-02T24:00:00Z", "2024-05-02T05:00:60Z", "0000-01-01T00:00:00Z",
                        "2024-05-02T05:00:00", "2024-05-02T05:00:00.Z", "2024-05-02t05:00:00Z", "2024-05-02T05:00:00z",
                        "2024-05-02T05:00:00+0100", "2024-05-02T05:00:00+15:00", "2024-05-02T05:00:00+01:60",
                        "2024-05-02T05:00:00.1234567890Z", "+2024-05-02T05:00:00Z", "12024-05-02T05:00:00Z",
                        "٢٠٢٤-05-02T05:00:00Z", "2024-05-02T05:00:00Z\u{0}", "2024-05-02T05:00:00\u{0}Z", ""] {
            #expect(ISO8601DateTime.parse(refused) == nil, "\(refused.debugDescription)")
        }
    }

    /// Seeded: 30,000 strings made from valid parts and then broken — long fractions (up to 60
    /// digits), years of 1 to 12 digits, odd zones, NUL, non-ASCII digits, cuts and swaps. Each
    /// gives exactly the reference's answer; none traps.
    @Test func generatedDatesMatchAReferenceComputation() {
        var generator = SplitMix64(seed: 22)
        var accepted = 0
        var refused = 0
        for _ in 0..<30_000 {
            let text = Self.generate(&generator)
            let parsed = ISO8601DateTime.parse(text)
            let expected = Self.reference(text)
            switch (parsed, expected) {
            case (nil, nil):
                refused += 1
            case let (parsed?, expected?):
                accepted += 1
                let tolerance = max(1e-6, abs(expected) * 1e-15)
                #expect(abs(parsed.timeIntervalSince1970 - expected) <= tolerance, "\(text.debugDescription)")
            default:
                Issue.record("\(text.debugDescription): parsed \(String(describing: parsed)), reference \(String(describing: expected))")
            }
        }
        // Both answers were exercised in earnest.
        #expect(accepted > 2_000, "accepted \(accepted)")  // 3,478 with seed 22
        #expect(refused > 5_000, "refused \(refused)")
    }

    static func generate(_ generator: inout SplitMix64) -> String {
        func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next() % UInt64(choices.count))] }
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(generator.next() % 10)) }) }
        func padded(_ value: UInt64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let roll = generator.next() % 100
        let year = roll < 5 ? digits(Int(generator.next() % 12) + 1) : padded(generator.next() % 10_000, 4)
        let month = padded(generator.next() % 14, 2)
        let day = padded(generator.next() % 33, 2)
        let hour = padded(generator.next() % 26, 2)
        let minute = padded(generator.next() % 62, 2)
        let second = padded(generator.next() % 62, 2)
        let fractionDigits = pick([0, 0, 1, 3, 6, 9, 9, 10, 12, 33, 34, 35, 40, 60])
        let fraction = fractionDigits == 0 ? pick(["", "", "."]) : "." + digits(fractionDigits)
        let zone = pick(["Z", "Z", "Z", "+\(padded(generator.next() % 16, 2)):\(padded(generator.next() % 62, 2))",
                         "-\(padded(generator.next() % 16, 2)):\(padded(generator.next() % 62, 2))", "+01:00", "-08:00",
                         "z", "+0100", "+01", "UTC", "", "+01:00:00", "Z ", "−01:00", "+14:00", "-14:59"])
        var text = Array("\(year)-\(month)-\(day)T\(hour):\(minute):\(second)\(fraction)\(zone)")
        // Breakage: a NUL, a digit of another script, a fullwidth digit, a cut, a swap, a stray byte.
        let breaks = generator.next() % 4 == 0 ? Int(generator.next() % 3) + 1 : 0
        for _ in 0..<breaks where !text.isEmpty {
            let at = Int(generator.next() % UInt64(text.count))
            switch generator.next() % 6 {
            case 0: text.insert("\u{0}", at: at)
            case 1: text[at] = pick(["٣", "１", "߂", "𝟘"])
            case 2: text.removeSubrange(at...)
            case 3: text.remove(at: at)
            case 4: text[at] = pick(["T", "-", ":", ".", "Z", "+", " ", "é"])
            default: text.insert(Character(String(generator.next() % 10)), at: at)
            }
        }
        return String(text)
    }

    /// The documented form, read with a regex (ASCII digits only) and the instant computed by the
    /// Gregorian calendar in UTC; a day the calendar would roll over (02-30) is refused by asking
    /// the calendar for it back.
    static func reference(_ text: String) -> TimeInterval? {
        let pattern = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))$/
        guard let match = text.wholeMatch(of: pattern),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6) else { return nil }
        guard year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var offset = 0
        if match.8 == nil {
            guard let sign = match.9, let zoneHours = match.10.flatMap({ Int($0) }), let zoneMinutes = match.11.flatMap({ Int($0) }),
                  zoneHours <= 14, zoneMinutes < 60 else { return nil }
            offset = (sign == "-" ? -1 : 1) * (zoneHours * 3600 + zoneMinutes * 60)
        }
        // Foundation's Gregorian calendar is Julian before October 1582; ISO 8601 is proleptic
        // Gregorian, which repeats every 400 years (146,097 days): an earlier year is asked for
        // 400·k years later and moved back.
        let cycles = year < 1600 ? (1600 - year + 399) / 400 : 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .gmt
        let wanted = DateComponents(year: year + 400 * cycles, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: wanted) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year + 400 * cycles, back.month == month, back.day == day else { return nil }
        let nanoseconds = match.7.map { Double(Int(String($0).padding(toLength: 9, withPad: "0", startingAt: 0)) ?? 0) } ?? 0
        let seconds = Int(date.timeIntervalSince1970.rounded()) - cycles * 146_097 * 86_400 - offset
        return Double(seconds) + nanoseconds / 1_000_000_000
    }
}
