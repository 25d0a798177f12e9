import ArgumentParser
import Foundation
import HealthModel

/// `healthctl activity goals set [--move E] [--exercise T] [--stand H] [--move-time T] [--from DAY]`.
struct ActivityGoalsSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change some goals from a day on (today unless --from).",
        discussion: """
            Goals you leave out keep their values. Days before --from keep the goals they had, \
            and a later change still applies from its own day.

            Example:
              healthctl activity goals set --move 600kcal --exercise 30min --stand 12h --from 2026-05-01
            """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: ArgumentHelp("Active energy per day, e.g. 600kcal or 2500kJ.", valueName: "energy"))
    var move: String?

    @Option(help: ArgumentHelp("Exercise per day, e.g. 30min.", valueName: "time"))
    var exercise: String?

    @Option(help: ArgumentHelp("Hours with a stand per day, e.g. 12h.", valueName: "hours"))
    var stand: String?

    @Option(name: .customLong("move-time"), help: ArgumentHelp("Move time per day (move-time mode), e.g. 45min.", valueName: "time"))
    var moveTime: String?

    @Option(help: ArgumentHelp("The first day the goals apply to, YYYY-MM-DD (default: today).", valueName: "day"))
    var from: String?

    func validate() throws {
        _ = try update(today: CalendarDay(year: 2000, month: 1, day: 1)!)
    }

    /// The change the options describe, from `--from` or else `today`.
    func update(today: CalendarDay) throws(ValidationError) -> ActivityGoalUpdate {
        func goal(_ text: String?, _ kind: GoalArgument.Kind) throws(ValidationError) -> Double? {
            do {
                return try text.map { (text) throws(GoalArgumentError) in try GoalArgument.parse(text, as: kind) }
            } catch {
                throw ValidationError(error.description)
            }
        }
        var day = today
        if let from {
            guard let parsed = CalendarDay(iso8601: from) else {
                throw ValidationError("--from takes a day as YYYY-MM-DD, e.g. 2026-05-01; got \(from.prefix(40))")
            }
            day = parsed
        }
        let update = ActivityGoalUpdate(effectiveFrom: day, moveKilocalories: try goal(move, .move),
                                        exerciseMinutes: try goal(exercise, .exercise), standHours: try goal(stand, .stand),
                                        moveTimeMinutes: try goal(moveTime, .moveTime))
        guard !update.changesNothing else {
            throw ValidationError("name at least one goal: --move, --exercise, --stand or --move-time")
        }
        return update
    }

    func run() async throws {
        let io = CommandIO.current
        let update = try update(today: CalendarDay(containing: Date(), in: io.timeZone))
        let client = try connection.connect()
        defer { client.close() }
        let schedule = try await client.setActivityGoals(update)
        io.output.writeLine("Goals from \(update.effectiveFrom):")
        io.output.write(ActivityTables.goals(schedule).rendered(emphasize: io.emphasized))
    }
}
