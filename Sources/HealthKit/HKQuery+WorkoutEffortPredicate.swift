public import Foundation

/// HealthKit's workout effort predicate (iOS 18).
extension HKQuery {
    /// Effort samples related to `workout` with `HKHealthStore.relateWorkoutEffortSample`; with
    /// `activity`, those related to that activity of it. For sample queries of
    /// workoutEffortScore / estimatedWorkoutEffortScore. A workout the querying app cannot read
    /// relates nothing. Only healthd knows relations: `evaluate(with:)` never matches.
    public static func predicateForWorkoutEffortSamplesRelated(workout: HKWorkout, activity: HKWorkoutActivity?) -> NSPredicate {
        SampleTreePredicate(.workoutEffort(workout: workout.uuid, activity: activity?.uuid))
    }
}
