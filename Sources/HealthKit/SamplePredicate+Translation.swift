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
            let operands = try compound.subpredicates.map { (operand) throws(HKError) in
                try SamplePredicate(translating: operand)
            }
            switch compound.compoundPredicateType {
            case .and: self = .and(operands)
            case .or: self = .or(operands)
            case .not:
                guard operands.count == 1 else {
                    throw HKError(.errorInvalidArgument, "a NOT predicate needs exactly one subpredicate, got \(operands.count)")
                }
                self = .not(operands[0])
            @unknown default:
                throw HKError(.errorInvalidArgument, "unsupported NSCompoundPredicate type \(compound.compoundPredicateType.rawValue)")
            }
        default:
            throw HKError(.errorInvalidArgument,
                          "predicates built with NSPredicate(value:) or NSPredicate(block:) are not supported (and "
                          + "NSPredicate(format:) does not exist on Linux); use HKQuery.predicateFor… and NSCompoundPredicate")
        }
    }
}
