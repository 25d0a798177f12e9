/// `predicateForWorkouts(operatorType:quantityType:sumQuantity:)` and its `minimumQuantity:`,
/// `maximumQuantity:` and `averageQuantity:` siblings (and the `predicateForWorkoutActivities`
/// ones): one of the statistics a workout builder computed for `quantityType`, compared with
/// `value` in the type's canonical unit (the unit `workout_statistics` keeps). A workout or
/// activity without statistics for the type, or without that statistic (a sum of a discrete
/// type), never matches.
public struct WorkoutStatisticTest: Hashable, Sendable {
    public enum Statistic: Hashable, Sendable, CaseIterable {
        case sum, minimum, maximum, average
    }

    public var quantityType: String
    public var statistic: Statistic
    public var op: ComparisonOperator
    public var value: Double

    public init(quantityType: String, statistic: Statistic, op: ComparisonOperator, value: Double) {
        self.quantityType = quantityType
        self.statistic = statistic
        self.op = op
        self.value = value
    }

    /// The test for `quantity` `unit`, converted to `type`'s canonical unit. Throws
    /// `errorInvalidArgument` for a unit `type` cannot be measured in or a number that is not finite.
    public init(quantityType type: HKQuantityType, statistic: Statistic, op: ComparisonOperator,
                quantity: Double, unit unitString: String) throws(HKError) {
        guard quantity.isFinite else { throw HKError(.errorInvalidArgument, "the predicate's \(statistic) is not a finite number") }
        let unit = try HKUnit.parse(unitString)
        guard type.is(compatibleWith: unit) else {
            throw HKError(.errorInvalidArgument,
                          "the predicate's unit \(unitString) is not compatible with \(type.identifier) (expected a unit like \(type.canonicalUnit.unitString))")
        }
        let canonical = try HKQuantity(unit: unit, doubleValue: quantity).value(in: type.canonicalUnit)
        guard canonical.isFinite else {
            throw HKError(.errorInvalidArgument,
                          "the predicate's \(statistic) \(quantity) \(unitString) is not a finite number in \(type.canonicalUnit.unitString)")
        }
        self.init(quantityType: type.identifier, statistic: statistic, op: op, value: canonical)
    }

    /// The reference semantics: the statistics for the type hold the statistic and it compares true.
    public func matches(_ statistics: [WorkoutStatisticsRecord]) -> Bool {
        guard let record = statistics.first(where: { $0.quantityType == quantityType }) else { return false }
        let stored: RecordedQuantity? = switch statistic {
        case .sum: record.sum
        case .minimum: record.minimum
        case .maximum: record.maximum
        case .average: record.average
        }
        return stored.map { op.evaluate($0.value, value) } ?? false
    }
}
