/// Which related samples an `HKWorkoutEffortRelationshipQuery` returns, as HealthKit's enum
/// (`NS_ENUM(NSInteger)`, raw values 0 and 1 << 0).
public enum HKWorkoutEffortRelationshipQueryOptions: Int, Sendable, Hashable {
    /// Every related sample the app can read.
    case `default` = 0
    /// "The most relevant sample will be returned" (HKWorkoutEffortRelationshipQuery.h): one
    /// sample per relationship — the user's workoutEffortScore over the estimated score, and of
    /// several of the same type the latest (`WorkoutEffortRules.mostRelevant`).
    case mostRelevant = 1
}
