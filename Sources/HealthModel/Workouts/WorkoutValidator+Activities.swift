public import Foundation

/// The checks on what a workout builder adds to a workout (iOS 16's model): totals in count,
/// activities, statistics and the samples to associate. Run by `WorkoutValidator.canonicalized`.
///
/// The rules, and where HealthKit's documentation leaves a choice, the one taken:
/// - stroke count and flights climbed are count quantities, finite and not negative;
/// - at most `SampleLimits.maximumWorkoutActivities` activities, each of a known activity type,
///   location type and swimming location type, with a length as lap length, inside the workout,
///   in chronological order and not overlapping (HealthKit's builder ends the current activity
///   before it begins the next), with distinct UUIDs;
/// - at most `SampleLimits.maximumWorkoutStatistics` statistics per workout or activity, one per
///   quantity type, each inside its workout or activity; a sum only for a cumulative type and
///   average, minimum and maximum only for a discrete one (`HKStatisticsOptions`' rule); values
///   in the type's range (a sum only within the general ceiling, and not negative for a type whose
///   samples cannot be), stored in the canonical unit;
/// - at most `SampleLimits.maximumWorkoutAssociations` samples to associate; whether they are
///   the saving app's own is decided where they are stored (`WorkoutRows`).
/// Messages name an activity or statistic by position and type, never a date or value.
extension WorkoutValidator {
    static func canonicalizedAdditions(_ workout: WorkoutValue, of record: SampleRecord) throws(HKError) -> WorkoutValue {
        var result = workout
        result.totalSwimmingStrokeCount = try canonical(workout.totalSwimmingStrokeCount, in: .count(),
                                                        named: "totalSwimmingStrokeCount")
        result.totalFlightsClimbed = try canonical(workout.totalFlightsClimbed, in: .count(), named: "totalFlightsClimbed")
        guard workout.associatedSampleUUIDs.count <= SampleLimits.maximumWorkoutAssociations else {
            throw HKError(.errorDataSizeExceeded,
                          "\(HKWorkoutTypeIdentifier): \(workout.associatedSampleUUIDs.count) samples to associate, at most \(SampleLimits.maximumWorkoutAssociations) are allowed")
        }
        result.statistics = try canonicalStatistics(workout.statistics, from: record.startDate, to: record.endDate,
                                                    owner: HKWorkoutTypeIdentifier)
        result.activities = try canonicalActivities(workout.activities, of: record)
        return result
    }

    private static func canonicalActivities(_ activities: [WorkoutActivityRecord],
                                            of record: SampleRecord) throws(HKError) -> [WorkoutActivityRecord] {
        guard activities.count <= SampleLimits.maximumWorkoutActivities else {
            throw HKError(.errorInvalidArgument,
                          "\(HKWorkoutTypeIdentifier): \(activities.count) workout activities, at most \(SampleLimits.maximumWorkoutActivities) are allowed")
        }
        var uuids = Set<UUID>()
        var previousEnd: Date?
        var result: [WorkoutActivityRecord] = []
        for (index, activity) in activities.enumerated() {
            guard let type = HKWorkoutActivityType(rawValue: activity.activityType) else {
                throw HKError(.errorInvalidArgument,
                              "workout activity \(index + 1): activity type \(activity.activityType) is not an HKWorkoutActivityType raw value")
            }
            let name = "workout activity \(index + 1) (\(type))"
            guard HKWorkoutSessionLocationType(rawValue: activity.locationType) != nil else {
                throw HKError(.errorInvalidArgument, "\(name): location type \(activity.locationType) is not an HKWorkoutSessionLocationType raw value")
            }
            guard HKWorkoutSwimmingLocationType(rawValue: activity.swimmingLocationType) != nil else {
                throw HKError(.errorInvalidArgument,
                              "\(name): swimming location type \(activity.swimmingLocationType) is not an HKWorkoutSwimmingLocationType raw value")
            }
            guard uuids.insert(activity.uuid).inserted else {
                throw HKError(.errorInvalidArgument, "\(name): another activity of this workout has the same UUID")
            }
            guard activity.startDate <= activity.endDate else {
                throw HKError(.errorInvalidArgument, "\(name): its interval ends before it starts")
            }
            guard Self.inside(activity.startDate, activity.endDate, record.startDate, record.endDate) else {
                throw HKError(.errorInvalidArgument, "\(name): its interval must lie inside the workout's start and end")
            }
            if let previousEnd, activity.startDate < previousEnd {
                throw HKError(.errorInvalidArgument,
                              "\(name): activities must be in chronological order and must not overlap; end the previous one first")
            }
            previousEnd = activity.endDate
            do {
                try MetadataValidator.check(activity.metadata, of: ObjectTypeRegistry.workout, sampleType: nil)
            } catch {
                throw HKError(.errorInvalidArgument, "\(name): \(error.message)")
            }
            var checked = activity
            checked.lapLength = try canonical(activity.lapLength, in: .meter(), named: "\(name) lapLength")
            checked.statistics = try canonicalStatistics(activity.statistics, from: activity.startDate,
                                                         to: activity.endDate, owner: name)
            result.append(checked)
        }
        return result
    }

    private static func canonicalStatistics(_ statistics: [WorkoutStatisticsRecord], from start: Date, to end: Date,
                                            owner: String) throws(HKError) -> [WorkoutStatisticsRecord] {
        guard statistics.count <= SampleLimits.maximumWorkoutStatistics else {
            throw HKError(.errorInvalidArgument,
                          "\(owner): \(statistics.count) statistics, at most \(SampleLimits.maximumWorkoutStatistics) are allowed (one per quantity type)")
        }
        var seen = Set<String>()
        var result: [WorkoutStatisticsRecord] = []
        for (index, statistic) in statistics.enumerated() {
            guard let type = HKObjectType.type(forIdentifier: statistic.quantityType) as? HKQuantityType else {
                throw HKError(.errorInvalidArgument,
                              "\(owner) statistics \(index + 1): \(statistic.quantityType.prefix(100)) is not a quantity type")
            }
            let name = "\(owner) statistics for \(type.identifier)"
            guard seen.insert(type.identifier).inserted else {
                throw HKError(.errorInvalidArgument, "\(name): appears twice; a workout has one set of statistics per type")
            }
            guard statistic.startDate <= statistic.endDate, Self.inside(statistic.startDate, statistic.endDate, start, end) else {
                throw HKError(.errorInvalidArgument, "\(name): its interval must lie inside the interval it describes")
            }
            let cumulative = type.aggregationStyle == .cumulative
            if cumulative, statistic.average != nil || statistic.minimum != nil || statistic.maximum != nil {
                throw HKError(.errorInvalidArgument, "\(name): a cumulative type has a sum, not an average, minimum or maximum")
            }
            if !cumulative, statistic.sum != nil {
                throw HKError(.errorInvalidArgument, "\(name): a discrete type has no sum")
            }
            var checked = statistic
            checked.sum = try canonicalSum(statistic.sum, of: type, named: name)
            checked.average = try canonicalValue(statistic.average, of: type, named: name)
            checked.minimum = try canonicalValue(statistic.minimum, of: type, named: name)
            checked.maximum = try canonicalValue(statistic.maximum, of: type, named: name)
            checked.mostRecent = try canonicalValue(statistic.mostRecent, of: type, named: name)
            result.append(checked)
        }
        return result
    }

    /// Whether `[start, end]` lies within `[outerStart, outerEnd]` in whole microseconds, the
    /// precision dates travel and are stored in: the SDK checks unrounded dates before sending,
    /// and statistics computed in microseconds may round a bound past the unrounded date.
    private static func inside(_ start: Date, _ end: Date, _ outerStart: Date, _ outerEnd: Date) -> Bool {
        start.microsecondsSince1970 >= outerStart.microsecondsSince1970 && end.microsecondsSince1970 <= outerEnd.microsecondsSince1970
    }

    /// A sample-like value (average, minimum, maximum, most recent): the type's own range.
    private static func canonicalValue(_ quantity: RecordedQuantity?, of type: HKQuantityType,
                                       named name: String) throws(HKError) -> RecordedQuantity? {
        guard let quantity else { return nil }
        let unit = try compatibleUnit(quantity, of: type, named: name)
        let value = try QuantityValueCheck.canonical(quantity.value, unit: unit, unitString: quantity.unit, of: type)
        return RecordedQuantity(value, unit: type.canonicalUnit.unitString)
    }

    /// A sum exceeds any one sample's range, so only finiteness and the general ceiling apply.
    private static func canonicalSum(_ quantity: RecordedQuantity?, of type: HKQuantityType,
                                     named name: String) throws(HKError) -> RecordedQuantity? {
        guard let quantity else { return nil }
        let unit = try compatibleUnit(quantity, of: type, named: name)
        let value = quantity.value.isFinite ? try HKQuantity(unit: unit, doubleValue: quantity.value).value(in: type.canonicalUnit) : .nan
        guard value.isFinite, abs(value) <= QuantityValueRanges.ceiling else {
            throw HKError(.errorInvalidArgument,
                          "\(name): the sum must be a finite number within ±\(QuantityValueCheck.format(QuantityValueRanges.ceiling)) \(type.canonicalUnit.unitString)")
        }
        // A sum of samples that cannot be negative cannot be either (a distance of -5 km was
        // stored): the type's own range decides the sign, as for each sample.
        if let range = QuantityValueRanges.range(for: HKQuantityTypeIdentifier(rawValue: type.identifier)),
           range.bounds.lowerBound >= 0, value < 0 {
            throw HKError(.errorInvalidArgument, "\(name): the sum must not be negative")
        }
        return RecordedQuantity(value, unit: type.canonicalUnit.unitString)
    }

    private static func compatibleUnit(_ quantity: RecordedQuantity, of type: HKQuantityType,
                                       named name: String) throws(HKError) -> HKUnit {
        let unit: HKUnit
        do {
            unit = try HKUnit.parse(quantity.unit)
        } catch {
            throw HKError(.errorInvalidArgument, "\(name): invalid unit")
        }
        guard type.is(compatibleWith: unit) else {
            throw HKError(.errorInvalidArgument,
                          "\(name): unit \(quantity.unit.prefix(100)) is not compatible with the type (expected a unit like \(type.canonicalUnit.unitString))")
        }
        return unit
    }
}
