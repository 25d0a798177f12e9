import Foundation
import HealthKit

/// HKStatisticsQuery and HKStatisticsCollectionQuery with `options:` left out, as Apple's Swift
/// signatures allow (`options: HKStatisticsOptions = []`), next to the same queries with
/// `.cumulativeSum`, over every step sample the app may read. Prints `ok STATISTICS COLLECTION`,
/// each as `sum-without/sum-with`, a missing sum as `nil`; the collection's part also counts
/// the intervals each form returns (`intervals-without/intervals-with`).
func statisticsWithoutOptionsSnippet(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func sum(_ statistics: HKStatistics?) -> String {
        statistics?.sumQuantity().map { "\($0.doubleValue(for: .count()))" } ?? "nil"
    }
    func statistics(_ makeQuery: (@escaping @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void) -> HKStatisticsQuery)
        async throws -> HKStatistics? {
        try await withCheckedThrowingContinuation { continuation in
            healthStore.execute(makeQuery { _, result, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: result) }
            })
        }
    }
    let without = try await statistics { handler in
        HKStatisticsQuery(quantityType: stepType, quantitySamplePredicate: nil, completionHandler: handler)
    }
    let with = try await statistics { handler in
        HKStatisticsQuery(quantityType: stepType, quantitySamplePredicate: nil, options: .cumulativeSum,
                          completionHandler: handler)
    }

    func collection(_ query: HKStatisticsCollectionQuery) async throws -> HKStatisticsCollection? {
        try await withCheckedThrowingContinuation { continuation in
            query.initialResultsHandler = { _, results, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results) }
            }
            healthStore.execute(query)
        }
    }
    let anchorDate = Date(timeIntervalSince1970: 1_699_999_200)
    let daily = DateComponents(day: 1)
    let collectionWithout = try await collection(
        HKStatisticsCollectionQuery(quantityType: stepType, quantitySamplePredicate: nil,
                                    anchorDate: anchorDate, intervalComponents: daily))
    let collectionWith = try await collection(
        HKStatisticsCollectionQuery(quantityType: stepType, quantitySamplePredicate: nil, options: .cumulativeSum,
                                    anchorDate: anchorDate, intervalComponents: daily))
    let intervalsWithout = collectionWithout?.statistics() ?? []
    let intervalsWith = collectionWith?.statistics() ?? []
    print("ok \(sum(without))/\(sum(with)) \(sum(intervalsWithout.first))/\(sum(intervalsWith.first)) "
          + "\(intervalsWithout.count)/\(intervalsWith.count)")
}
