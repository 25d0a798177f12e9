import Foundation
import HealthManagerCLI
import Testing

@Suite(.timeLimit(.minutes(10))) struct DateArgumentTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func instant(_ iso: String) -> Date {
        try! Date(iso, strategy: .iso8601)
    }

    @Test func aDayIsMidnightToMidnightInTheUsersZone() throws {
        let day = try DateArgument(parsing: "2024-05-01")
        #expect(day.value == .day(year: 2024, month: 5, day: 1))
        #expect(try day.start(in: berlin) == instant("2024-04-30T22:00:00Z"))
        #expect(try day.end(in: berlin) == instant("2024-05-01T22:00:00Z"))
    }

    @Test(arguments: [
        ("2024-05-01T08:30", "2024-05-01T06:30:00Z"),
        ("2024-05-01 08:30:15", "2024-05-01T06:30:15Z"),
        ("2024-05-01T08:30:00Z", "2024-05-01T08:30:00Z"),
        ("2024-05-01T08:30:00+02:00", "2024-05-01T06:30:00Z"),
        ("2024-05-01T08:30-0130", "2024-05-01T10:00:00Z"),
    ])
    func dateTimesWithAndWithoutZones(text: String, expected: String) throws {
        let argument = try DateArgument(parsing: text)
        #expect(try argument.start(in: berlin) == instant(expected))
        #expect(try argument.end(in: berlin) == argument.start(in: berlin))
    }

    @Test func fractionalSecondsAreKept() throws {
        let argument = try DateArgument(parsing: "2024-05-01T08:30:00.25Z")
        let start = try argument.start(in: berlin).timeIntervalSince(instant("2024-05-01T08:30:00Z"))
        #expect(abs(start - 0.25) < 1e-6)
    }

    @Test(arguments: ["yesterday", "2024-5-1", "01/05/2024", "2024-05-01T8:30", "2024-05-01T08:30:00 UTC", "",
                      // Digits of other scripts (Arabic-Indic, full-width): trapped a force unwrap before (issue 13).
                      "٢٠٢٤-٠٥-٠١", "２０２４-05-01", "2024-05-01T０８:30", "2024-05-01T08:30:00.５", "2024-05-01T08:30+٠٢:00"])
    func wrongFormatsExplainTheFormat(text: String) {
        #expect(throws: DateArgumentError(text: text, reason: .format)) { try DateArgument(parsing: text) }
    }

    @Test(arguments: ["2024-02-30", "2023-02-29", "2024-13-01", "2024-05-01T24:00", "2024-05-01T08:60", "2024-05-01T08:30+19:00"])
    func impossibleDatesAreRefusedNotRolledOver(text: String) {
        #expect(throws: DateArgumentError(text: text, reason: .noSuchDate)) { try DateArgument(parsing: text) }
    }

    @Test func leapDayExists() throws {
        #expect(try DateArgument(parsing: "2024-02-29").value == .day(year: 2024, month: 2, day: 29))
    }
}
