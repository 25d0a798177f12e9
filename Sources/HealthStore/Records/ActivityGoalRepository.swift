public import Foundation
import GRDB
public import HealthModel

/// The user's activity goals over time (`healthctl activity goals`). Only the manager reads the
/// schedule whole; apps see goals only inside summaries (`ActivitySummaryRepository`).
public struct ActivityGoalRepository: Sendable {
    let writer: any DatabaseWriter

    public func schedule() throws -> ActivityGoalSchedule {
        try writer.read(Self.schedule)
    }

    /// Applies `update` from its day on — goals it leaves out keep the values that applied that
    /// day — and returns the new schedule. Later changes stay: they still apply from their days.
    /// Throws `errorInvalidArgument` (nothing stored) when a resulting goal is out of range.
    @discardableResult
    public func apply(_ update: ActivityGoalUpdate, at date: Date = Date()) throws -> ActivityGoalSchedule {
        try writer.write { db in
            let goals = update.applied(to: try Self.schedule(db).goals(on: update.effectiveFrom))
            try goals.validate()
            try db.execute(sql: """
                INSERT INTO activity_goals (effective_from, set_us, move_kcal, exercise_min, stand_hours, move_time_min)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(effective_from) DO UPDATE SET
                    set_us = excluded.set_us, move_kcal = excluded.move_kcal, exercise_min = excluded.exercise_min,
                    stand_hours = excluded.stand_hours, move_time_min = excluded.move_time_min
                """, arguments: [update.effectiveFrom.description, date.microsecondsSince1970, goals.moveKilocalories,
                                 goals.exerciseMinutes, goals.standHours, goals.moveTimeMinutes])
            return try Self.schedule(db)
        }
    }

    static func schedule(_ db: Database) throws -> ActivityGoalSchedule {
        let rows = try Row.fetchAll(db, sql: """
            SELECT effective_from, move_kcal, exercise_min, stand_hours, move_time_min FROM activity_goals
            ORDER BY effective_from
            """)
        return ActivityGoalSchedule(try rows.map { row in
            guard let day = CalendarDay(iso8601: row[0]) else { throw StoredValueError(table: "activity_goals") }
            return ActivityGoalChange(effectiveFrom: day, goals: goals(row, from: 1))
        })
    }

    /// The four goal columns starting at `index`, in the table's order.
    static func goals(_ row: Row, from index: Int) -> ActivityGoals {
        ActivityGoals(moveKilocalories: row[index], exerciseMinutes: row[index + 1], standHours: row[index + 2],
                      moveTimeMinutes: row[index + 3])
    }
}

extension HealthDatabase {
    public var activityGoals: ActivityGoalRepository { ActivityGoalRepository(writer: writer) }
}
