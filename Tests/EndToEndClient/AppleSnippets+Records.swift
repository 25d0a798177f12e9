import Foundation
import HealthKit

// Snippets of issue 15's query APIs (engineer "records"), as Apple documents them; see
// AppleSnippets.swift for the convention.

/// developer.apple.com/documentation/healthkit/hkquery/predicateforobjectswithnocorrelation():
/// systolic readings saved alone, not as half of a blood-pressure correlation. Prints the
/// number of systolic samples, then of those no correlation holds.
func uncorrelatedSystolic(_ healthStore: HKHealthStore) async throws {
    let systolicType = HKQuantityType(.bloodPressureSystolic)
    func count(_ predicate: NSPredicate?) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(sampleType: systolicType, predicate: predicate, limit: HKObjectQueryNoLimit,
                                      sortDescriptors: nil) { query, results, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results?.count ?? 0) }
            }
            healthStore.execute(query)
        }
    }
    let noncorrelated = HKQuery.predicateForObjectsWithNoCorrelation()
    print("ok \(try await count(nil)) \(try await count(noncorrelated))")
}
