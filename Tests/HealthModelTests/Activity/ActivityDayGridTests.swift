import Foundation
import Testing
@testable import HealthModel

/// Days from local midnight to local midnight. Instants are UTC seconds from the zones' rules.
@Suite(.timeLimit(.minutes(10))) struct ActivityDayGridTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test func berlinDaysAre23And25HoursLongAtTheDSTChanges() throws {
        let spring = try ActivityDayGrid.days(from: CalendarDay(year: 2026, month: 3, day: 29)!,
                                              through: CalendarDay(year: 2026, month: 3, day: 29)!, in: berlin)
        #expect(spring.grid.boundaries == [1_774_738_800_000_000, 1_774_821_600_000_000])
        let autumn = try ActivityDayGrid.days(from: CalendarDay(year: 2026, month: 10, day: 25)!,
                                              through: CalendarDay(year: 2026, month: 10, day: 26)!, in: berlin)
        #expect(autumn.count == 2)
        #expect(autumn.grid.span(at: 0).length == 25 * 3_600 * 1_000_000)
        #expect(autumn.grid.span(at: 1).length == 24 * 3_600 * 1_000_000)
        #expect(autumn.day(at: 1) == CalendarDay(year: 2026, month: 10, day: 26))
    }

    @Test func coveringTakesTheDaysOfTheFirstAndLastInstant() throws {
        // 2026-03-28T22:30Z is 23:30 on the 28th in Berlin; an end at the 29th's midnight
        // (23:00Z) is not inside the 29th.
        let grid = try ActivityDayGrid.covering(TimeSpan(start: 1_774_737_000_000_000, end: 1_774_738_800_000_000), in: berlin)
        #expect(grid.count == 1)
        #expect(grid.firstDay == CalendarDay(year: 2026, month: 3, day: 28))
    }

    @Test func tooManyDaysAreRefusedBeforeAnyBoundaryIsComputed() throws {
        let error = try #require(throws: HKError.self) {
            try ActivityDayGrid.days(from: CalendarDay(year: 1, month: 1, day: 1)!,
                                     through: CalendarDay(year: 9999, month: 1, day: 1)!, in: berlin)
        }
        #expect(error.code == .errorInvalidArgument)
        // In days, with a remedy a summary query has: no "longer interval" (a summary is a day).
        #expect(error.message.contains("days of activity summaries"), "\(error.message)")
        #expect(error.message.contains("narrower date range"))
        #expect(!error.message.contains("interval"))
    }
}
