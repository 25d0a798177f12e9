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

/// developer.apple.com/documentation/healthkit/hkactivitysummaryquery/updatehandler: "If this
/// property is not nil, the query … continues to run, monitoring the HealthKit store. If any new,
/// matching summaries are saved to the store—or if any of the existing matching summaries are
/// modified in the store—the query executes this update handler". Prints `initial N`, then one
/// `update K DAY energy=E goal=G` line per summary of the K-th update; stops after `updates`.
func watchActivitySummaries(_ healthStore: HKHealthStore, updates wanted: Int) async throws {
    let deliveries = AsyncThrowingStream<(initial: Bool, summaries: [HKActivitySummary]), any Error>.makeStream()
    let query = HKActivitySummaryQuery(predicate: nil) { query, summaries, error in
        if let error { return deliveries.continuation.finish(throwing: error) }
        deliveries.continuation.yield((true, summaries ?? []))
    }
    query.updateHandler = { query, updatedActivitySummaries, error in
        if let error { return deliveries.continuation.finish(throwing: error) }
        deliveries.continuation.yield((false, updatedActivitySummaries ?? []))
    }
    healthStore.execute(query)
    var count = 0
    for try await delivery in deliveries.stream {
        if delivery.initial {
            emit("initial \(delivery.summaries.count)")
        } else {
            count += 1
            for summary in delivery.summaries {
                let day = summary.dateComponents(for: Calendar(identifier: .gregorian))
                let energy = summary.activeEnergyBurned.doubleValue(for: .kilocalorie())
                let goal = summary.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie())
                emit(String(format: "update %d %04d-%02d-%02d energy=%.1f goal=%.1f", count, day.year ?? 0, day.month ?? 0, day.day ?? 0,
                            energy, goal))
            }
        }
        if count == wanted { break }
    }
    healthStore.stop(query)
    emit("ok \(count)")
}

/// HKActivitySummaryQueryDescriptor.results(for:): "The first element of the stream will be a
/// complete collection of activity summaries which match. Subsequent elements will contain only
/// the activity summaries that have changed". Prints `element K N` per element; stops after
/// `elements` elements.
func activitySummaryResults(_ healthStore: HKHealthStore, elements wanted: Int) async throws {
    let descriptor = HKActivitySummaryQueryDescriptor(predicate: nil)
    var count = 0
    for try await summaries in descriptor.results(for: healthStore) {
        count += 1
        emit("element \(count) \(summaries.count)")
        if count == wanted { break }
    }
    emit("ok \(count)")
}

/// `snippet NAME COUNT`: how many updates a long-running snippet waits for (1 if left out).
func snippetCount() -> Int {
    let arguments = CommandLine.arguments
    return arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
}

/// developer.apple.com/documentation/healthkit/hksamplequery/init(querydescriptors:limit:sortdescriptors:resultshandler:):
/// "Creates a query for samples that match any of the query descriptors you provided, sorted by
/// the sort descriptors you provided." Prints the number of samples without a limit, then the
/// types of the newest three (StepCount/HeartRate).
func descriptorSamples(_ healthStore: HKHealthStore) async throws {
    let queryDescriptors = [HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: nil),
                            HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil)]
    let sortDescriptors = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)]
    func run(_ limit: Int) async throws -> [HKSample] {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(queryDescriptors: queryDescriptors, limit: limit, sortDescriptors: sortDescriptors) { query, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            }
            healthStore.execute(query)
        }
    }
    let all = try await run(HKObjectQueryNoLimit)
    let newest = try await run(3).map { $0.sampleType.identifier.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "") }
    print("ok \(all.count) \(newest.joined(separator: " "))")
}
