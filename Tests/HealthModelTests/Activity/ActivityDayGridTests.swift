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

    /// Foundation's Gregorian calendar is Julian before 1582-10-15, `CalendarDay` proleptic
    /// Gregorian: 1582-10-14's midnight lies after 10-15's there. The grid refuses what the
    /// calendar puts out of order; it once built an inverted `TimeSpan` and trapped (healthd
    /// died for a grantless app, crashhunt22 finding 1).
    @Test func daysTheCalendarPutsOutOfOrderAreRefusedNotTrappedOn() throws {
        let utc = TimeZone(identifier: "UTC")!
        for (first, last, zone) in [(CalendarDay(year: 1582, month: 10, day: 14)!, CalendarDay(year: 1582, month: 10, day: 15)!, utc),
                                    (CalendarDay(year: 1582, month: 10, day: 10)!, CalendarDay(year: 1582, month: 10, day: 15)!, berlin)] {
            let error = try #require(throws: HKError.self) { try ActivityDayGrid.days(from: first, through: last, in: zone) }
            #expect(error.code == .errorInvalidArgument)
            #expect(error.message.contains("\(first)"), "\(error.message)")
        }
    }

    @Test func aSpanFromOutsideBoundsThrowsWhenItEndsBeforeItStarts() throws {
        let error = try #require(throws: HKError.self) { try TimeSpan(checkedStart: 10, end: 9) }
        #expect(error.code == .errorInvalidArgument)
        #expect(try TimeSpan(checkedStart: 9, end: 9) == TimeSpan(start: 9, end: 9))
    }
}
