import Foundation

extension SamplePredicate {
    /// The tree for an `NSPredicate` built from `HKQuery.predicateFor…` results and
    /// `NSCompoundPredicate`s of them. Any other predicate cannot be sent to the broker: on Linux
    /// an `NSPredicate` is an opaque block, with no format string or key paths to translate.
    init(translating predicate: NSPredicate) throws(HKError) {
        switch predicate {
        case let ours as SampleTreePredicate:
            self = ours.samplePredicate
        case let unusable as UnusablePredicate:
            throw unusable.error
        case is WorkoutActivityPredicate:
            // As in HealthKit, an activity predicate selects activities, not samples.
            throw HKError(.errorInvalidArgument,
                          "a predicateForWorkoutActivities… predicate selects workout activities; wrap it in "
                          + "HKQuery.predicateForWorkouts(activityPredicate:) to query workouts")
        case let compound as NSCompoundPredicate:
            self = try compound.translated({ (operand) throws(HKError) in try SamplePredicate(translating: operand) },
                                           and: { .and($0) }, or: { .or($0) }, not: { .not($0) })
        default:
            throw HKError(.errorInvalidArgument,
                          "predicates built with NSPredicate(value:) or NSPredicate(block:) are not supported (and "
                          + "NSPredicate(format:) does not exist on Linux); use HKQuery.predicateFor… and NSCompoundPredicate")
        }
    }
}
