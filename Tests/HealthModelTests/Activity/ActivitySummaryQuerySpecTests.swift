import Foundation
import Testing
@testable import HealthModel

/// The one check of the days an app or healthctl names for activity summaries: inside the
/// store's dates, 1900-01-01 … 2200-01-01, so no day reaches Foundation's calendar near its
/// Julian/Gregorian cutover (1582-10-15).
@Suite(.timeLimit(.minutes(10))) struct ActivitySummaryQuerySpecTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDay { CalendarDay(year: year, month: month, day: day)! }

    @Test func daysOutsideTheStoresDatesAreRefusedNamingTheDay() throws {
        for (first, last) in [(Self.day(1582, 10, 14), Self.day(1582, 10, 15)), (Self.day(1, 1, 1), Self.day(1, 1, 2)),
                              (Self.day(1899, 12, 31), Self.day(1900, 1, 1)), (Self.day(2200, 1, 1), Self.day(2200, 1, 2))] {
            let outside = SampleLimits.permittedDays.contains(first) ? last : first
            for spec in [ActivitySummaryQuerySpec(firstDay: first, lastDay: last, timeZoneIdentifier: "UTC"),
                         ActivitySummaryQuerySpec(firstDay: outside, timeZoneIdentifier: "UTC"),
                         ActivitySummaryQuerySpec(lastDay: outside, timeZoneIdentifier: "UTC")] {
                let error = try #require(throws: HKError.self) { try spec.validatedTimeZone() }
                #expect(error.code == .errorInvalidArgument)
                #expect(error.message.contains(outside.description), "\(error.message)")
                #expect(error.message.contains("1900-01-01 and 2200-01-01"), "\(error.message)")
            }
        }
    }

    @Test func theRangesEdgesAreAccepted() throws {
        let spec = ActivitySummaryQuerySpec(firstDay: Self.day(1900, 1, 1), lastDay: Self.day(2200, 1, 1), timeZoneIdentifier: "Pacific/Kiritimati")
        #expect(try spec.validatedTimeZone().identifier == "Pacific/Kiritimati")
    }
}
