import Foundation
import HealthModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct CalendarDayTests {
    @Test func onlyRealDaysExist() {
        #expect(CalendarDay(year: 2024, month: 2, day: 29) != nil)
        #expect(CalendarDay(year: 2023, month: 2, day: 29) == nil)
        #expect(CalendarDay(year: 1900, month: 2, day: 29) == nil)  // not a leap year
        #expect(CalendarDay(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDay(year: 2024, month: 4, day: 31) == nil)
        #expect(CalendarDay(year: 2024, month: 13, day: 1) == nil)
        #expect(CalendarDay(year: 2024, month: 1, day: 0) == nil)
    }

    @Test func iso8601IsTheOnlySpelling() {
        #expect(CalendarDay(iso8601: "1984-03-02") == CalendarDay(year: 1984, month: 3, day: 2))
        #expect(CalendarDay(year: 1984, month: 3, day: 2)!.description == "1984-03-02")
        for text in ["1984-3-2", "84-03-02", "1984/03/02", "1984-03-02T00:00", "1984-02-30", "", "١٩٨٤-٠٣-٠٢"] {
            #expect(CalendarDay(iso8601: text) == nil, "\(text)")
        }
    }

    @Test func theDayOfAnInstantDependsOnTheZone() {
        let instant = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC
        #expect(CalendarDay(containing: instant, in: TimeZone(identifier: "UTC")!).description == "2023-11-14")
        #expect(CalendarDay(containing: instant, in: TimeZone(identifier: "Asia/Tokyo")!).description == "2023-11-15")
    }

    @Test func dateComponentsAreGregorianYearMonthDay() {
        let components = CalendarDay(year: 1984, month: 3, day: 2)!.dateComponents
        #expect(components.year == 1984 && components.month == 3 && components.day == 2)
        #expect(components.calendar?.identifier == .gregorian)
        #expect(components.hour == nil)
    }
}
