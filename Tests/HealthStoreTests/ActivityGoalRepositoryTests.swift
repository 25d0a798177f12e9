import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

@Suite(.timeLimit(.minutes(10))) struct ActivityGoalRepositoryTests {
    let may1 = CalendarDay(year: 2026, month: 5, day: 1)!
    let june1 = CalendarDay(year: 2026, month: 6, day: 1)!

    @Test func changesApplyFromTheirDayAndKeepTheGoalsTheyLeaveOut() throws {
        let goals = try HealthDatabase(writer: DatabaseQueue()).activityGoals
        #expect(try goals.schedule() == ActivityGoalSchedule())
        try goals.apply(ActivityGoalUpdate(effectiveFrom: may1, moveKilocalories: 500, exerciseMinutes: 30, standHours: 12))
        let schedule = try goals.apply(ActivityGoalUpdate(effectiveFrom: june1, standHours: 10))
        #expect(schedule.changes == [
            ActivityGoalChange(effectiveFrom: may1, goals: ActivityGoals(moveKilocalories: 500, exerciseMinutes: 30, standHours: 12)),
            ActivityGoalChange(effectiveFrom: june1, goals: ActivityGoals(moveKilocalories: 500, exerciseMinutes: 30, standHours: 10)),
        ])
        // A second change on a day replaces that day's row; later rows stay.
        try goals.apply(ActivityGoalUpdate(effectiveFrom: may1, moveKilocalories: 550))
        #expect(try goals.schedule().changes.map(\.goals.moveKilocalories) == [550, 500])
    }

    @Test func anInvalidGoalStoresNothing() throws {
        let goals = try HealthDatabase(writer: DatabaseQueue()).activityGoals
        #expect(throws: HKError.self) { try goals.apply(ActivityGoalUpdate(effectiveFrom: may1, standHours: 30)) }
        #expect(try goals.schedule().changes.isEmpty)
    }
}
