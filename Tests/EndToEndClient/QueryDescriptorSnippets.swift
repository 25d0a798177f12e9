import Foundation
import HealthKit

// `snippet descriptors-limit` of the scripted app: HKSampleQuery(queryDescriptors:limit:
// resultsHandler:) as developer.apple.com/documentation/healthkit/hksamplequery/
// init(querydescriptors:limit:resultshandler:) shows it. Checked by AppleSnippetTests+QueryDescriptors.

/// Runs one query over steps of at least 100 count, all heart rates and all body masses, with
/// no limit and with limit 3. Prints `all …` and `limited …` as the number of samples per type
/// (steps, heart rate, body mass), then `ok ALL LIMITED`.
func descriptorsWithLimit(_ healthStore: HKHealthStore) async throws {
    let stepPredicate = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo,
                                                            quantity: HKQuantity(unit: .count(), doubleValue: 100))
    let queryDescriptors = [
        HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: stepPredicate),
        HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil),
        HKQueryDescriptor(sampleType: HKQuantityType(.bodyMass), predicate: nil),
    ]
    func run(_ limit: Int) async throws -> [HKSample] {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(queryDescriptors: queryDescriptors, limit: limit) { query, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            }
            healthStore.execute(query)
        }
    }
    func counts(_ samples: [HKSample]) -> String {
        [HKQuantityTypeIdentifier.stepCount, .heartRate, .bodyMass].map { identifier in
            String(samples.filter { $0.sampleType == HKQuantityType(identifier) }.count)
        }.joined(separator: " ")
    }
    let all = try await run(HKObjectQueryNoLimit)
    let limited = try await run(3)
    print("all \(counts(all))")
    print("limited \(counts(limited))")
    print("ok \(all.count) \(limited.count)")
}

/// `snippet correlations-by-date`: blood-pressure correlations through HKSampleQueryDescriptor
/// sorted by `\.startDate` (newest first), then by `\.endDate` (oldest first, limit 2), as
/// developer.apple.com/documentation/healthkit/hksamplequerydescriptor shows. Prints each
/// reading's systolic value in order: `ok NEWEST-FIRST OLDEST-TWO`.
func correlationsByDate(_ healthStore: HKHealthStore) async throws {
    let bloodPressure = HKCorrelationType(.bloodPressure)
    let newestFirst = HKSampleQueryDescriptor(predicates: [.correlation(type: bloodPressure)],
                                              sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)])
    let oldestTwo = HKSampleQueryDescriptor(predicates: [.correlation(type: bloodPressure)],
                                            sortDescriptors: [SortDescriptor(\.endDate)], limit: 2)
    func systolic(_ readings: [HKCorrelation]) -> String {
        readings.map { reading in
            let sample = reading.objects(for: HKQuantityType(.bloodPressureSystolic)).first as? HKQuantitySample
            return sample.map { String(Int($0.quantity.doubleValue(for: .millimeterOfMercury()))) } ?? "-"
        }.joined(separator: ",")
    }
    print("ok \(systolic(try await newestFirst.result(for: healthStore))) \(systolic(try await oldestTwo.result(for: healthStore)))")
}
