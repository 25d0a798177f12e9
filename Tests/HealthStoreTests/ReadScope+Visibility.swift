import HealthStore

extension ReadScope {
    /// This scope for the queried type and for the workouts and correlations a predicate may
    /// name, and for every type a workout's values derive from: the reads tests make when only
    /// one scope is under test.
    var visibility: Visibility {
        Visibility(scope: self, workouts: self, correlations: self, workoutValues: WorkoutValueScopes(others: self))
    }
}
