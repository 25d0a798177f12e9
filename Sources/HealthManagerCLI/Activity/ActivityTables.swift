import HealthModel

/// The tables `healthctl activity` prints. Pure, tested without a socket.
enum ActivityTables {
    /// One row per change of goals, oldest first.
    static func goals(_ schedule: ActivityGoalSchedule) -> TextTable {
        var table = TextTable([.init("FROM"), .init("MOVE"), .init("EXERCISE"), .init("STAND"), .init("MOVE TIME")])
        for change in schedule.changes {
            let goals = change.goals
            table.append([change.effectiveFrom.description, "\(number(goals.moveKilocalories)) kcal",
                          "\(number(goals.exerciseMinutes)) min", "\(number(goals.standHours)) h",
                          "\(number(goals.moveTimeMinutes)) min"])
        }
        return table
    }

    /// One row per day with data: each ring as "value / goal unit", and the move mode.
    static func summaries(_ summaries: [ActivitySummaryRecord]) -> TextTable {
        var table = TextTable([.init("DAY"), .init("MOVE"), .init("EXERCISE"), .init("STAND"), .init("MOVE TIME"), .init("MOVE MODE")])
        for summary in summaries {
            let totals = summary.totals, goals = summary.goals
            table.append([summary.day.description,
                          "\(number(totals.activeEnergyBurned)) / \(number(goals.moveKilocalories)) kcal",
                          "\(number(totals.exerciseMinutes)) / \(number(goals.exerciseMinutes)) min",
                          "\(totals.standHours) / \(number(goals.standHours)) h",
                          "\(number(totals.moveTimeMinutes)) / \(number(goals.moveTimeMinutes)) min",
                          summary.moveMode == .appleMoveTime ? "move time" : "active energy"])
        }
        return table
    }

    /// Whole numbers as such; otherwise one decimal (a ring is read at a glance).
    private static func number(_ value: Double) -> String {
        NumberText.decimal(value, maximumFractionDigits: 1)
    }
}
