/// What a workout predicate tests (`HKQuery.predicateForWorkouts(with:duration:)` and the other
/// workout predicates of issue 15): one of the workout's stored totals, one of the statistics
/// its builder computed, or whether one of its iOS 16 activities passes an activity test.
/// Numbers are in the stored units (`WorkoutTotal.unit`, the quantity type's canonical unit):
/// the SDK converts the app's `HKQuantity` once (`WorkoutTotal.canonical(_:unit:)`), and
/// healthd compares numbers only. A workout without the value never matches, whatever the
/// operator, as in a SQL comparison with NULL. No other sample matches.
public enum WorkoutTest: Hashable, Sendable {
    /// `predicateForWorkouts(with:duration:)`, `…(with:totalEnergyBurned:)`, `…(with:totalDistance:)`,
    /// `…(with:totalSwimmingStrokeCount:)`, `…(with:totalFlightsClimbed:)`.
    case total(WorkoutTotal, ComparisonOperator, Double)
    /// `predicateForWorkouts(operatorType:quantityType:sumQuantity:)` and its minimum, maximum
    /// and average siblings: the workout's own statistics for the quantity type.
    case statistic(WorkoutStatisticTest)
    /// `predicateForWorkouts(activityPredicate:)`: workouts with at least one activity that passes.
    case activity(WorkoutActivityTest)

    /// The reference semantics the store's SQL must agree with.
    public func matches(_ workout: WorkoutValue) -> Bool {
        switch self {
        case let .total(total, op, number):
            return total.value(of: workout).map { op.evaluate($0, number) } ?? false
        case let .statistic(test):
            return test.matches(workout.statistics)
        case let .activity(test):
            return workout.activities.contains { test.matches($0) }
        }
    }

    /// Whether every number the test holds is finite (healthd refuses the rest).
    public var isFinite: Bool {
        switch self {
        case let .total(_, _, number): number.isFinite
        case let .statistic(test): test.value.isFinite
        case let .activity(test): test.isFinite
        }
    }
}

/// The workout totals a predicate can compare, each in the unit the store keeps it in.
public enum WorkoutTotal: Hashable, Sendable, CaseIterable {
    case duration, energyBurned, distance, swimmingStrokeCount, flightsClimbed

    /// The unit the store keeps the total in (`workouts` columns), which the SDK converts to.
    public var unit: String {
        switch self {
        case .duration: "s"
        case .energyBurned: "kcal"
        case .distance: "m"
        case .swimmingStrokeCount, .flightsClimbed: "count"
        }
    }

    /// `value` `unit` in this total's stored unit. Throws `errorInvalidArgument` for a unit of
    /// another dimension or a number that is not finite (before or after the conversion).
    public func canonical(_ value: Double, unit unitString: String) throws(HKError) -> Double {
        guard value.isFinite else { throw HKError(.errorInvalidArgument, "the predicate's \(self) is not a finite number") }
        let unit = try HKUnit.parse(unitString)
        let stored = try HKUnit.parse(self.unit)
        guard unit.isCompatible(with: stored) else {
            throw HKError(.errorInvalidArgument, "the predicate's unit \(unitString) cannot measure a workout's \(self); use a unit like \(self.unit)")
        }
        let converted = try HKQuantity(unit: unit, doubleValue: value).value(in: stored)
        guard converted.isFinite else {
            throw HKError(.errorInvalidArgument, "the predicate's \(self) \(value) \(unitString) is not a finite number in \(self.unit)")
        }
        return converted
    }

    /// The workout's total in the stored unit, nil when the workout has none.
    func value(of workout: WorkoutValue) -> Double? {
        switch self {
        case .duration: workout.duration
        case .energyBurned: workout.totalEnergyBurned?.value
        case .distance: workout.totalDistance?.value
        case .swimmingStrokeCount: workout.totalSwimmingStrokeCount?.value
        case .flightsClimbed: workout.totalFlightsClimbed?.value
        }
    }
}
