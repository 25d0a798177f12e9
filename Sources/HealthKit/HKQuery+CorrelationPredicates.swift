public import Foundation

/// HealthKit's correlation predicate.
extension HKQuery {
    /// Objects no correlation holds, as HealthKit's: e.g. systolic readings saved alone, not as
    /// half of a blood-pressure correlation. A correlation the querying app cannot see — another
    /// app's, unless it may read every type the correlation may hold — counts as absent, so its
    /// samples match. Only healthd knows membership: `evaluate(with:)` on fetched samples never
    /// matches.
    public static func predicateForObjectsWithNoCorrelation() -> NSPredicate {
        SampleTreePredicate(.noCorrelation)
    }
}
