import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// `healthctl activity summary|goals show|set` against a fake healthd (the runner's time zone is UTC).
@Suite(.timeLimit(.minutes(10))) struct ActivityCommandTests {
    static let may1 = CalendarDay(year: 2026, month: 5, day: 1)!
    static let schedule = ActivityGoalSchedule([
        ActivityGoalChange(effectiveFrom: may1, goals: ActivityGoals(moveKilocalories: 600, exerciseMinutes: 30, standHours: 12)),
    ])

    static func broker(summaries: [ActivitySummaryRecord] = []) throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch HealthManagerMethod(rawValue: call.method) {
            case .listActivityGoals, .setActivityGoals:
                call.responder.respond(schedule.wireBytes())
            case .queryActivitySummaries:
                if !summaries.isEmpty { try? await call.responder.send(ActivitySummaryBatch(summaries).wireBytes()) }
                call.responder.finish()
            default:
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    @Test func setConvertsEachGoalToItsUnitAndSendsOnlyThoseGiven() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["activity", "goals", "set", "--socket", server.socketPath, "--move", "2092kJ",
                                          "--exercise", "0.5h", "--stand", "12h", "--from", "2026-05-01"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            Goals from 2026-05-01:
            FROM        MOVE      EXERCISE  STAND  MOVE TIME
            2026-05-01  600 kcal  30 min    12 h   0 min

            """)
        let sent = try server.payloads(for: .setActivityGoals).map(ActivityGoalUpdate.init(wire:))
        #expect(sent.count == 1)
        #expect(abs((sent.first?.moveKilocalories ?? 0) - 2092 / 4.184) < 1e-9)  // kJ → kcal (thermochemical)
        #expect(sent.first?.exerciseMinutes == 30)
        #expect(sent.first?.standHours == 12)
        #expect(sent.first?.moveTimeMinutes == nil)
        #expect(sent.first?.effectiveFrom == Self.may1)
    }

    @Test func wrongGoalsAreRefusedBeforeAnythingIsSent() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let cases = [
            (["--move", "600steps"], "600steps is not a move goal; write a number and a unit, e.g. 600kcal (or kJ)"),
            (["--stand", "12kcal"], "12kcal is not a stand goal; write a number and a unit, e.g. 12h"),
            (["--exercise", "lots"], "lots is not a exercise goal"),
            (["--move", "600", "--from", "2026-02-30"], "--from takes a day as YYYY-MM-DD"),
            ([], "name at least one goal"),
        ]
        for (arguments, message) in cases {
            let outcome = await runHealthCtl(["activity", "goals", "set", "--socket", server.socketPath] + arguments)
            #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue)
            #expect(outcome.errors.contains(message), "\(outcome.errors)")
        }
        #expect(server.payloads(for: .setActivityGoals).isEmpty)
    }

    @Test func summaryAsksForTheDaysEndingThroughAndShowsEachRing() async throws {
        let day = CalendarDay(year: 2026, month: 3, day: 29)!
        let server = try Self.broker(summaries: [
            ActivitySummaryRecord(day: day, totals: ActivityTotals(activeEnergyBurned: 115, exerciseMinutes: 22.5, standHours: 3),
                                  goals: ActivityGoals(moveKilocalories: 600, exerciseMinutes: 30, standHours: 12),
                                  moveMode: .appleMoveTime),
        ])
        defer { server.stop() }
        let outcome = await runHealthCtl(["activity", "summary", "--socket", server.socketPath, "--days", "3",
                                          "--through", "2026-03-29"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            DAY         MOVE            EXERCISE       STAND     MOVE TIME  MOVE MODE
            2026-03-29  115 / 600 kcal  22.5 / 30 min  3 / 12 h  0 / 0 min  move time

            """)
        let sent = try server.payloads(for: .queryActivitySummaries).map(ActivitySummaryQuerySpec.init(wire:))
        #expect(sent == [ActivitySummaryQuerySpec(firstDay: CalendarDay(year: 2026, month: 3, day: 27)!, lastDay: day,
                                                  timeZoneIdentifier: TimeZone(identifier: "UTC")!.identifier)])
    }

    @Test func showSaysWhenNoGoalsAreSet() async throws {
        let server = try FakeManagerServer { call in call.responder.respond(ActivityGoalSchedule().wireBytes()) }
        defer { server.stop() }
        let outcome = await runHealthCtl(["activity", "goals", "show", "--socket", server.socketPath])
        #expect(outcome.output == "No activity goals set.\n")
    }
}
