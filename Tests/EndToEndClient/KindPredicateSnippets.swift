import Foundation
import HealthKit

// Issue 15's workout predicates written as Apple's pages show them
// (developer.apple.com/documentation/healthkit/hkquery/predicateforworkouts(with:duration:),
// …/predicateforworkouts(with:totaldistance:), …/predicateforworkouts(activitypredicate:)),
// run by an HKSampleQuery of workoutType().

/// Prints `ok LONG FAR RUNNING LONGRUNS`: the workouts of 30 minutes or more, of 6.5 miles or
/// more, with a running activity, and both long and with a running activity.
func workoutPredicatesSnippet(_ healthStore: HKHealthStore) async throws {
    // Predicate matching workouts equal to or longer than 30 minutes
    let workout = HKQuery.predicateForWorkouts(with: .greaterThanOrEqualTo, duration: 60.0 * 30.0)

    // Predicate matching workouts covering 6.5 miles or more
    let sixAndAHalfMiles = HKQuantity(unit: HKUnit.mile(), doubleValue: 6.5)
    let far = HKQuery.predicateForWorkouts(with: .greaterThanOrEqualTo, totalDistance: sixAndAHalfMiles)

    let runningActivityPredicate = HKQuery.predicateForWorkoutActivities(workoutActivityType: .running)
    let workoutPredicate = HKQuery.predicateForWorkouts(activityPredicate: runningActivityPredicate)

    let longRuns = NSCompoundPredicate(andPredicateWithSubpredicates: [workout, workoutPredicate])

    var counts: [Int] = []
    for predicate in [workout, far, workoutPredicate, longRuns] {
        let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(sampleType: HKObjectType.workoutType(), predicate: predicate, limit: HKObjectQueryNoLimit,
                                      sortDescriptors: nil) { _, results, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
            }
            healthStore.execute(query)
        }
        counts.append(samples.count)
    }
    print("ok " + counts.map(String.init).joined(separator: " "))
}
