import Foundation

/// The `NSPredicate` of `HKQuery.predicateForWorkoutActivities…`. As in HealthKit it selects
/// workout activities, not samples: it is usable only inside
/// `predicateForWorkouts(activityPredicate:)` (alone, or in `NSCompoundPredicate`s of these),
/// and a query given one directly fails with `errorInvalidArgument`.
final class WorkoutActivityPredicate: NSPredicate {
    let test: WorkoutActivityTest

    init(_ test: WorkoutActivityTest) {
        self.test = test
        super.init(value: true)
    }

    required init?(coder: NSCoder) {
        nil  // never archived: the test travels inside a workout predicate
    }

    /// Evaluates against a finished `HKWorkoutActivity` with the broker's semantics.
    override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let activity = object as? HKWorkoutActivity, let end = activity.endDate else { return false }
        let record = activity.workoutConfiguration.record(uuid: activity.uuid, start: activity.startDate, end: end, metadata: [:],
                                                          statistics: WorkoutStatisticsConversion.records(activity.allStatistics))
        return test.matches(record)
    }

    override func evaluate(with object: Any?) -> Bool {
        evaluate(with: object, substitutionVariables: nil)
    }

    override var predicateFormat: String { "workout activity \(test)" }
    override var description: String { predicateFormat }
}

extension WorkoutActivityTest {
    /// The test for an `NSPredicate` built from `predicateForWorkoutActivities…` results and
    /// `NSCompoundPredicate`s of them; anything else is not an activity predicate.
    init(translating predicate: NSPredicate) throws(HKError) {
        switch predicate {
        case let ours as WorkoutActivityPredicate:
            self = ours.test
        case let unusable as UnusablePredicate:
            throw unusable.error
        case let compound as NSCompoundPredicate:
            self = try compound.translated({ (operand) throws(HKError) in try WorkoutActivityTest(translating: operand) },
                                           and: { .and($0) }, or: { .or($0) }, not: { .not($0) })
        default:
            throw HKError(.errorInvalidArgument,
                          "predicateForWorkouts(activityPredicate:) takes predicates from HKQuery.predicateForWorkoutActivities… "
                          + "and NSCompoundPredicates of them")
        }
    }
}
