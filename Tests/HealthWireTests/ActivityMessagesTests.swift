import HealthModel
import Testing

@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct ActivityMessagesTests {
    let day = CalendarDay(year: 2026, month: 3, day: 29)!

    @Test func queriesRoundTripWithAndWithoutDays() throws {
        for spec in [ActivitySummaryQuerySpec(firstDay: day, lastDay: day, timeZoneIdentifier: "Europe/Berlin"),
                     ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC"),
                     ActivitySummaryQuerySpec(firstDay: day, timeZoneIdentifier: "Asia/Kolkata")] {
            #expect(try ActivitySummaryQuerySpec(wire: spec.wireBytes()) == spec)
        }
    }

    @Test func summariesRoundTrip() throws {
        let batch = ActivitySummaryBatch([
            ActivitySummaryRecord(day: day, totals: ActivityTotals(activeEnergyBurned: 115.5, exerciseMinutes: 30, standHours: 3,
                                                                   moveTimeMinutes: 12),
                                  goals: ActivityGoals(moveKilocalories: 600, exerciseMinutes: 30, standHours: 12, moveTimeMinutes: 45),
                                  moveMode: .appleMoveTime),
            ActivitySummaryRecord(day: CalendarDay(year: 2026, month: 3, day: 30)!, totals: ActivityTotals()),
        ])
        #expect(try ActivitySummaryBatch(wire: batch.wireBytes()) == batch)
    }

    @Test func anUpdateKeepsWhichGoalsWereLeftOut() throws {
        let update = ActivityGoalUpdate(effectiveFrom: day, exerciseMinutes: 0, standHours: 10)
        let decoded = try ActivityGoalUpdate(wire: update.wireBytes())
        #expect(decoded == update)
        #expect(decoded.moveKilocalories == nil)
        #expect(decoded.exerciseMinutes == 0)  // a zero goal is still a goal given
    }

    @Test func aScheduleRoundTrips() throws {
        let schedule = ActivityGoalSchedule([ActivityGoalChange(effectiveFrom: day, goals: ActivityGoals(standHours: 12))])
        #expect(try ActivityGoalSchedule(wire: schedule.wireBytes()) == schedule)
    }

    @Test func impossibleDaysAndUnknownMoveModesAreRefused() {
        var wrongDay = ActivityGoalUpdate(effectiveFrom: day, standHours: 1).wireBytes()
        // effective_from is field 1: tag 0x0A, length, then year (0x08), month (0x10), day (0x18 29).
        let dayField = wrongDay.firstIndex(of: 0x18)!
        wrongDay[dayField + 1] = 31  // March 31 is fine; make it February 31 instead
        wrongDay[wrongDay.firstIndex(of: 0x10)! + 1] = 2
        #expect(throws: WireDecodeError.self) { try ActivityGoalUpdate(wire: wrongDay) }
        var summary = ActivitySummaryRecord(day: day, totals: ActivityTotals())
        summary.moveMode = .activeEnergy
        var bytes = ActivitySummaryBatch([summary]).wireBytes()
        // move_mode (field 7, varint) is the last field written: tag 0x38, value 1.
        #expect(bytes[bytes.count - 2] == 0x38)
        bytes[bytes.count - 1] = 9
        #expect(throws: WireDecodeError.self) { try ActivitySummaryBatch(wire: bytes) }
    }
}
