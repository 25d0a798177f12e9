import GRDB
import HealthModel

/// The workout, category-list and electrocardiogram predicates of issue 15. Like the State of
/// Mind ones, each is an EXISTS correlated to the visible row `o` by its key (every side table
/// here has a primary key that starts with the object's id), so it is evaluated only for rows
/// the Visibility condition already admits, one index probe per row, and a hidden workout can
/// never match: its `objects` row is not among the visible ones.
extension SampleSQL {
    /// `values`: the reader's scopes for the quantity types the totals and statistics derive
    /// from. A value the reader may not see is tested as absent: the visibility term sits inside
    /// the EXISTS, so the test is false (never NULL) and its NOT holds, as for a workout saved
    /// without the value.
    static func workoutCondition(_ test: WorkoutTest, values: WorkoutValueScopes) -> (sql: String, arguments: StatementArguments) {
        switch test {
        case let .total(total, op, number):
            // NULL (no total recorded) compares as false for every operator.
            let visible = values.visibleSQL(total, activityColumn: "wk.activity_type")
            return ("EXISTS (SELECT 1 FROM workouts wk WHERE wk.object_id = o.id AND wk.\(workoutColumn(total)) \(op.sqlOperator) ? AND \(visible.sql))",
                    StatementArguments([number]) + visible.arguments)
        case let .statistic(statistic):
            // activity_position -1: the statistics of the whole workout (WorkoutActivityRows).
            let compiled = statisticCondition(statistic, workout: "o.id", position: "-1", values: values)
            return ("EXISTS (\(compiled.sql))", compiled.arguments)
        case let .activity(activityTest):
            let compiled = activityCondition(activityTest, values: values)
            return ("EXISTS (SELECT 1 FROM workout_activities wa WHERE wa.workout_id = o.id AND (\(compiled.sql)))", compiled.arguments)
        }
    }

    static func categoryValuesCondition(_ values: Set<Int>) -> (sql: String, arguments: StatementArguments) {
        guard !values.isEmpty else { return ("0", []) }
        // One bound JSON list however many values (as UUID lists): the condition count stays 1.
        let list = values.sorted().map(String.init).joined(separator: ",")
        return ("o.category IN (SELECT value FROM json_each(?))", ["[\(list)]"])
    }

    static func electrocardiogramCondition(_ test: ElectrocardiogramTest) -> (sql: String, arguments: StatementArguments) {
        switch test {
        case let .classification(raw):
            return ("EXISTS (SELECT 1 FROM electrocardiograms ecg WHERE ecg.object_id = o.id AND ecg.classification = ?)", [raw])
        case let .symptomsStatus(raw):
            return ("EXISTS (SELECT 1 FROM electrocardiograms ecg WHERE ecg.object_id = o.id AND ecg.symptoms_status = ?)", [raw])
        }
    }

    /// A condition over one activity row `wa` of the workout `o`.
    private static func activityCondition(_ test: WorkoutActivityTest, values: WorkoutValueScopes) -> (sql: String, arguments: StatementArguments) {
        switch test {
        case let .activityType(type):
            return ("wa.activity_type = ?", [Int64(clamping: type)])
        case let .duration(op, seconds):
            // Microseconds, as stored: the activity's duration is its end minus its start.
            return ("(wa.end_us - wa.start_us) \(op.sqlOperator) ?", [seconds * 1_000_000])
        case let .dateRange(start, end, strictStart, strictEnd):
            // The sample rule of `condition(.dateRange…)` on the activity's columns.
            var parts: [String] = []
            var arguments = StatementArguments()
            if let start {
                parts.append(strictStart ? "wa.start_us >= ?" : "wa.end_us >= ?")
                arguments += [start.microsecondsSince1970]
            }
            if let end {
                parts.append(strictEnd ? "wa.end_us < ?" : "wa.start_us < ?")
                arguments += [end.microsecondsSince1970]
            }
            return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
        case let .statistic(statistic):
            let compiled = statisticCondition(statistic, workout: "wa.workout_id", position: "wa.position", values: values)
            return ("EXISTS (\(compiled.sql))", compiled.arguments)
        case let .and(operands):
            return joinActivity(operands, with: "AND", empty: "1", values: values)
        case let .or(operands):
            return joinActivity(operands, with: "OR", empty: "0", values: values)
        case let .not(operand):
            // Every activity condition is NULL-free (its columns are NOT NULL, a statistic is an
            // EXISTS), so NOT here is the reference semantics' `!matches`.
            let inner = activityCondition(operand, values: values)
            return ("NOT (\(inner.sql))", inner.arguments)
        }
    }

    private static func joinActivity(_ operands: [WorkoutActivityTest], with op: String, empty: String,
                                     values: WorkoutValueScopes) -> (sql: String, arguments: StatementArguments) {
        guard !operands.isEmpty else { return (empty, []) }
        var arguments = StatementArguments()
        let parts = operands.map { operand in
            let compiled = activityCondition(operand, values: values)
            arguments += compiled.arguments
            return "(\(compiled.sql))"
        }
        return (parts.joined(separator: " \(op) "), arguments)
    }

    /// A lookup of one statistics row by its whole primary key (workout, position, type).
    /// The workout's `objects` row is `o` in both callers (the activity's EXISTS is correlated to it).
    private static func statisticCondition(_ test: WorkoutStatisticTest, workout: String, position: String,
                                           values: WorkoutValueScopes) -> (sql: String, arguments: StatementArguments) {
        let column = switch test.statistic {
        case .sum: "sum"
        case .minimum: "minimum"
        case .maximum: "maximum"
        case .average: "average"
        }
        let visible = values.visibleSQL([test.quantityType])
        return ("""
            SELECT 1 FROM workout_statistics ws WHERE ws.workout_id = \(workout) AND ws.activity_position = \(position) \
            AND ws.quantity_type = ? AND ws.\(column) \(test.op.sqlOperator) ? AND \(visible.sql)
            """, StatementArguments([test.quantityType, test.value] as [any DatabaseValueConvertible]) + visible.arguments)
    }

    /// The `workouts` column that holds a total (predicates and sort keys).
    static func workoutColumn(_ total: WorkoutTotal) -> String {
        switch total {
        case .duration: "duration"
        case .energyBurned: "total_energy_kcal"
        case .distance: "total_distance_m"
        case .swimmingStrokeCount: "total_swimming_strokes"
        case .flightsClimbed: "total_flights_climbed"
        }
    }
}
