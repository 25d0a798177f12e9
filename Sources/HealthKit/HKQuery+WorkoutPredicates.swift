public import Foundation

/// HealthKit's workout predicates.
extension HKQuery {
    /// Samples associated with `workout`: those added with `HKHealthStore.add(_:to:)`, and for
    /// the route type, its route. A workout the querying app cannot read matches nothing.
    /// Only healthd knows associations: `evaluate(with:)` on fetched samples never matches.
    public static func predicateForObjects(from workout: HKWorkout) -> NSPredicate {
        SampleTreePredicate(.workout(workout.uuid))
    }

    /// Workouts of one activity type.
    public static func predicateForWorkouts(with workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        SampleTreePredicate(.workoutActivityType(workoutActivityType.rawValue))
    }
}

extension HKSamplePredicate where Sample == HKWorkout {
    public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> {
        HKSamplePredicate(sampleType: HKObjectType.workoutType(), nsPredicate: predicate)
    }
}
