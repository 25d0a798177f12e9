import Testing
@testable import HealthModel

@Suite(.timeLimit(.minutes(10))) struct ActivityGoalScheduleTests {
    let may1 = CalendarDay(year: 2026, month: 5, day: 1)!
    let june1 = CalendarDay(year: 2026, month: 6, day: 1)!

    @Test func aDayHasTheGoalsOfTheLatestChangeOnOrBeforeIt() {
        let schedule = ActivityGoalSchedule([
            ActivityGoalChange(effectiveFrom: june1, goals: ActivityGoals(moveKilocalories: 700)),
            ActivityGoalChange(effectiveFrom: may1, goals: ActivityGoals(moveKilocalories: 500)),
        ])
        #expect(schedule.changes.map(\.effectiveFrom) == [may1, june1])
        #expect(schedule.goals(on: CalendarDay(year: 2026, month: 4, day: 30)!) == .none)
        #expect(schedule.goals(on: may1).moveKilocalories == 500)
        #expect(schedule.goals(on: CalendarDay(year: 2026, month: 5, day: 31)!).moveKilocalories == 500)
        #expect(schedule.goals(on: june1).moveKilocalories == 700)
    }

    @Test func anUpdateKeepsTheGoalsItLeavesOut() {
        let current = ActivityGoals(moveKilocalories: 500, exerciseMinutes: 30, standHours: 12, moveTimeMinutes: 45)
        let update = ActivityGoalUpdate(effectiveFrom: june1, standHours: 10)
        #expect(update.applied(to: current) == ActivityGoals(moveKilocalories: 500, exerciseMinutes: 30, standHours: 10,
                                                              moveTimeMinutes: 45))
        #expect(!update.changesNothing)
        #expect(ActivityGoalUpdate(effectiveFrom: june1).changesNothing)
    }

    @Test func goalsOutOfRangeAreRefused() throws {
        try ActivityGoals(moveKilocalories: 600, exerciseMinutes: 30, standHours: 12).validate()
        for goals in [ActivityGoals(moveKilocalories: -1), ActivityGoals(exerciseMinutes: 1_441), ActivityGoals(standHours: 25),
                      ActivityGoals(standHours: 10.5), ActivityGoals(moveTimeMinutes: .nan)] {
            #expect(throws: HKError.self) { try goals.validate() }
        }
    }
}
