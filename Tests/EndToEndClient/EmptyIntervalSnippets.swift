import Foundation
import HealthKit

// `snippet empty-interval-statistics` of the scripted app: HKStatisticsCollection.statistics(for:)
// for a day without samples, through a real broker. Checked by AppleSnippetTests+QueryDescriptors.

/// Daily step sums from the anchor 1,699,999,200 (the steps fall on the first and third day).
/// developer.apple.com/documentation/healthkit/hkstatisticscollection/statistics(for:) returns
/// the statistics of the interval holding the date; for the empty second day that is an
/// HKStatistics whose sum is nil, spanning that day. Prints `day1 SUM`, `day2 SUM START END`
/// (or `day2 absent`), then `ok`.
func emptyIntervalStatistics(_ healthStore: HKHealthStore) async throws {
    let anchorDate = Date(timeIntervalSince1970: 1_699_999_200)
    let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil,
                                            options: .cumulativeSum, anchorDate: anchorDate,
                                            intervalComponents: DateComponents(day: 1))
    let collection: HKStatisticsCollection? = try await withCheckedThrowingContinuation { continuation in
        query.initialResultsHandler = { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results) }
        }
        healthStore.execute(query)
    }
    guard let collection else { usage("no statistics collection") }
    let sum = { (statistics: HKStatistics?) in statistics?.sumQuantity().map { "\($0.doubleValue(for: .count()))" } ?? "nil" }
    print("day1 \(sum(collection.statistics(for: anchorDate.addingTimeInterval(7200))))")
    if let day2 = collection.statistics(for: anchorDate.addingTimeInterval(86_400 + 7200)) {
        print("day2 \(sum(day2)) \(Int(day2.startDate.timeIntervalSince1970)) \(Int(day2.endDate.timeIntervalSince1970))")
    } else {
        print("day2 absent")
    }
    print("ok")
}
