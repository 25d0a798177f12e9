import Foundation
import HealthKit

// Anchored queries over several types, written as Apple documents them (AppleSnippetTests).

/// The types of `samples`, in delivery order, as one field (`-` for none).
private func typeList(_ samples: [HKSample]) -> String {
    samples.isEmpty ? "-" : samples.map { $0.sampleType.identifier }.joined(separator: ",")
}

/// developer.apple.com/documentation/healthkit/hkanchoredobjectquery/init(querydescriptors:anchor:limit:resultshandler:)
/// with an `updateHandler`: "an anchored object query for data that matches any of the
/// HKQueryDescriptor objects". Prints `delivery N initial|update TYPES` for the initial results
/// and the first update, then `ok 2`.
func anchoredDescriptors(_ healthStore: HKHealthStore) async throws {
    let queryDescriptors = [HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: nil),
                            HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil)]
    let deliveries = AsyncThrowingStream<(String, [HKSample]), any Error>.makeStream()
    let query = HKAnchoredObjectQuery(queryDescriptors: queryDescriptors, anchor: nil, limit: HKObjectQueryNoLimit) {
        query, samplesOrNil, deletedObjectsOrNil, newAnchor, errorOrNil in
        if let errorOrNil {
            deliveries.continuation.finish(throwing: errorOrNil)
            return
        }
        deliveries.continuation.yield(("initial", samplesOrNil ?? []))
    }
    query.updateHandler = { query, samplesOrNil, deletedObjectsOrNil, newAnchor, errorOrNil in
        if let errorOrNil {
            deliveries.continuation.finish(throwing: errorOrNil)
            return
        }
        deliveries.continuation.yield(("update", samplesOrNil ?? []))
    }
    healthStore.execute(query)
    var count = 0
    for try await (kind, samples) in deliveries.stream {
        count += 1
        emit("delivery \(count) \(kind) \(typeList(samples))")
        if count == 2 { break }
    }
    healthStore.stop(query)
    emit("ok \(count)")
}

/// developer.apple.com/documentation/healthkit/hkanchoredobjectquerydescriptor: "To query for
/// multiple types of data, provide a sample predicate for each type." `result(for:)` reads what
/// is there (`result TYPES`); `results(for:)` from its anchor then gives the changes since, as
/// they happen (`results N TYPES`, the first one at once), until the loop ends after two.
func anchoredDescriptorAsync(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    let heartRateType = HKQuantityType(.heartRate)
    let anchorDescriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: stepType), .quantitySample(type: heartRateType)],
        anchor: nil)
    let results = try await anchorDescriptor.result(for: healthStore)
    emit("result \(typeList(results.addedSamples))")

    let updateDescriptor = HKAnchoredObjectQueryDescriptor(
        predicates: [.quantitySample(type: stepType), .quantitySample(type: heartRateType)],
        anchor: results.newAnchor)
    let updateQueue = updateDescriptor.results(for: healthStore)
    var count = 0
    for try await update in updateQueue {
        count += 1
        emit("results \(count) \(typeList(update.addedSamples))")
        if count == 2 { break }
    }
    emit("ok \(count)")
}
