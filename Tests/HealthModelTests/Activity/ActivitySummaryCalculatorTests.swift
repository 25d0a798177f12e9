import Foundation
import Testing
@testable import HealthModel

/// Day totals worked out by hand, on Berlin's spring DST day (2026-03-29, 23 hours: midnight is
/// 2026-03-28T23:00Z = 1 774 738 800 s, the next midnight 22:00Z) and the day before it.
@Suite(.timeLimit(.minutes(10))) struct ActivitySummaryCalculatorTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-03-29 00:00 in Berlin, seconds since 1970.
    let midnight: Int64 = 1_774_738_800
    let march28 = CalendarDay(year: 2026, month: 3, day: 28)!
    let march29 = CalendarDay(year: 2026, month: 3, day: 29)!
    let march30 = CalendarDay(year: 2026, month: 3, day: 30)!

    /// A sample from `start` to `end` seconds after the DST day's midnight.
    func sample(_ start: Int64, _ end: Int64, _ value: Double) -> StatisticsSample {
        Fixture.sample(midnight + start, midnight + end, value)
    }

    func stand(_ start: Int64, stood: Bool = true) -> StandHourSample {
        StandHourSample(start: Fixture.micros(midnight + start), stood: stood)
    }

    func days() throws -> ActivityDayGrid {
        try ActivityDayGrid.days(from: march28, through: march30, in: berlin)
    }

    @Test func twoEnergySourcesAreMergedByPriorityAcrossMidnight() throws {
        // Phone: 60 kcal over 23:00–01:00 (two hours across midnight). Watch, ranked first:
        // 100 kcal over the hour 00:30–01:30. The phone counts only where the watch is silent,
        // 23:00–00:30: 1.5 h of 2 h = 45 kcal, 30 of them (23:00–00:00) on the 28th and 15 on
        // the 29th. So the 28th burned 30 kcal, the 29th 100 + 15 = 115.
        let watch = Fixture.source("watch", [sample(1_800, 5_400, 100)])
        let phone = Fixture.source("phone", [sample(-3_600, 3_600, 60)])
        let result = ActivitySummaryCalculator.totals(of: ActivitySamples(activeEnergy: [watch, phone]), days: try days())
        #expect(result.map(\.day) == [march28, march29])
        #expect(abs(result[0].totals.activeEnergyBurned - 30) < 1e-9)
        #expect(abs(result[1].totals.activeEnergyBurned - 115) < 1e-9)
        #expect(result[1].start == Fixture.micros(midnight))

        // The phone first instead: 60 whole (30 + 30), and the watch's 01:00–01:30, half of its
        // hour: 50. The 29th: 30 + 50 = 80.
        let reordered = ActivitySummaryCalculator.totals(of: ActivitySamples(activeEnergy: [phone, watch]), days: try days())
        #expect(abs(reordered[1].totals.activeEnergyBurned - 80) < 1e-9)
    }

    @Test func standHoursCountEachAbsoluteHourOfTheShortDayOnce() throws {
        // Hours count from midnight in absolute time: 01:10 CET is hour 1; 03:10 and 03:40 CEST
        // (2 h 10 min and 2 h 40 min after midnight, the clocks having skipped 02:00) are both
        // hour 2, counted once though two apps saw them; 05:00 CEST is idle; 23:30 CEST is hour
        // 22, the last of the 23. Three hours.
        let samples = ActivitySamples(standHours: [stand(4_200), stand(7_800), stand(9_600), stand(14_400, stood: false),
                                                   stand(81_000)])
        let result = ActivitySummaryCalculator.totals(of: samples, days: try days())
        #expect(result.map(\.day) == [march29])
        #expect(result[0].totals.standHours == 3)
    }

    @Test func anIdleHourAloneStillMakesADayWithData() throws {
        let result = ActivitySummaryCalculator.totals(of: ActivitySamples(standHours: [stand(-600, stood: false)]), days: try days())
        #expect(result.map(\.day) == [march28])
        #expect(result[0].totals == ActivityTotals())
    }

    @Test func workoutsAddTheTimeNoExerciseSampleCovers() throws {
        // Exercise time: 10 min over 10:00–10:10 (seconds 36 000–36 600). Workouts 10:05–10:25
        // and 10:20–10:30 overlap: their union 10:05–10:30, of which 10:10–10:30 (20 min) no
        // exercise sample covers. 10 + 20 = 30 minutes.
        let samples = ActivitySamples(exerciseTime: [Fixture.source("watch", [sample(36_000, 36_600, 10)])],
                                      workouts: [Fixture.span(midnight + 36_300, midnight + 37_500),
                                                 Fixture.span(midnight + 37_200, midnight + 37_800)])
        let result = ActivitySummaryCalculator.totals(of: samples, days: try days())
        #expect(result.map(\.day) == [march29])
        #expect(abs(result[0].totals.exerciseMinutes - 30) < 1e-9)
    }

    @Test func moveTimeIsTheMergedSumAndDaysWithoutDataAreLeftOut() throws {
        // Two apps saw the same 12 minutes of movement: counted once. The 30th has nothing.
        let samples = ActivitySamples(moveTime: [Fixture.source("watch", [sample(80_000, 80_720, 12)]),
                                                 Fixture.source("phone", [sample(80_000, 80_720, 12)])])
        let result = ActivitySummaryCalculator.totals(of: samples, days: try days())
        #expect(result.map(\.day) == [march29])
        #expect(abs(result[0].totals.moveTimeMinutes - 12) < 1e-9)
    }

    @Test func samplesOutsideTheDaysAreIgnored() throws {
        // Ends exactly at the first midnight (1_774_652_400 s): it shares no time with the days.
        let before = Fixture.source("watch", [Fixture.sample(1_774_648_800, 1_774_652_400, 50)])
        let result = ActivitySummaryCalculator.totals(of: ActivitySamples(activeEnergy: [before]), days: try days())
        #expect(result.isEmpty)
    }
}
