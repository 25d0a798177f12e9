public import Foundation

/// The activity predicates of iOS 16 (`HKQuery.predicateForWorkoutActivities…`), which Apple
/// applies only inside `predicateForWorkouts(activityPredicate:)`: a workout matches when one of
/// its activities passes the whole test (a compound is applied to one activity at a time).
/// Durations in seconds, statistics in the quantity type's canonical unit.
public indirect enum WorkoutActivityTest: Hashable, Sendable {
    /// `predicateForWorkoutActivities(workoutActivityType:)`: the `HKWorkoutActivityType` raw value.
    case activityType(UInt)
    /// `predicateForWorkoutActivities(operatorType:duration:)`: the activity's end minus its start.
    case duration(ComparisonOperator, TimeInterval)
    /// `predicateForWorkoutActivities(start:end:options:)`, with the sample date rule of
    /// `SamplePredicate.dateRange` applied to the activity's dates.
    case dateRange(start: Date?, end: Date?, strictStart: Bool, strictEnd: Bool)
    /// `predicateForWorkoutActivities(operatorType:quantityType:sumQuantity:)` and siblings.
    case statistic(WorkoutStatisticTest)
    case and([WorkoutActivityTest])
    case or([WorkoutActivityTest])
    case not(WorkoutActivityTest)

    /// The reference semantics the store's SQL must agree with.
    public func matches(_ activity: WorkoutActivityRecord) -> Bool {
        switch self {
        case let .activityType(type):
            return activity.activityType == type
        case let .duration(op, seconds):
            return op.evaluate(activity.endDate.timeIntervalSince(activity.startDate), seconds)
        case let .dateRange(start, end, strictStart, strictEnd):
            // The sample rule (`SamplePredicate.dateRange`) on the activity's dates.
            if let start, strictStart ? activity.startDate < start : activity.endDate < start { return false }
            if let end, strictEnd ? activity.endDate >= end : activity.startDate >= end { return false }
            return true
        case let .statistic(test):
            return test.matches(activity.statistics)
        case let .and(operands):
            return operands.allSatisfy { $0.matches(activity) }
        case let .or(operands):
            return operands.contains { $0.matches(activity) }
        case let .not(operand):
            return !operand.matches(activity)
        }
    }

    /// Whether every number the test holds is finite.
    public var isFinite: Bool {
        switch self {
        case .activityType, .dateRange: true
        case let .duration(_, seconds): seconds.isFinite
        case let .statistic(test): test.value.isFinite
        case let .and(operands), let .or(operands): operands.allSatisfy(\.isFinite)
        case let .not(operand): operand.isFinite
        }
    }

    /// The SQL conditions the test compiles to, as `SamplePredicate.conditionCount` counts them.
    public var conditionCount: Int {
        switch self {
        case .activityType, .duration, .dateRange, .statistic: 1
        case let .and(operands), let .or(operands): operands.reduce(1) { $0 + $1.conditionCount }
        case let .not(operand): 1 + operand.conditionCount
        }
    }
}
