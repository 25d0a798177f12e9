import Foundation
import HealthKit

// Snippets for quantity series (issue 15), written as Apple's pages show them (see
// AppleSnippets.swift). Only the `print` lines are the test's.

/// The series' start: an hour boundary (UTC), so hourly statistics intervals anchor on it.
private let seriesStart = Date(timeIntervalSince1970: 1_699_999_200)

/// developer.apple.com/documentation/healthkit/hkquantityseriessamplebuilder: steps inserted
/// with date intervals (one replaced by a later insert at the same start), finished with the
/// async `finishSeries(metadata:)`; then `HKQuantitySeriesSampleQuery` with `includeSample`, and
/// hourly cumulative statistics. Prints `ok COUNT SUM QUANTITIES HOURLY`: each quantity as
/// `VALUE@OFFSET+DURATION` (`!` after the last, whose handler call had `done`), each hour's sum.
func quantitySeriesStepsSnippet(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    let builder = HKQuantitySeriesSampleBuilder(healthStore: healthStore, quantityType: stepType, startDate: seriesStart, device: nil)
    try builder.insert(HKQuantity(unit: .count(), doubleValue: 10), for: DateInterval(start: seriesStart, duration: 60))
    try builder.insert(HKQuantity(unit: .count(), doubleValue: 20), for: DateInterval(start: seriesStart + 60, duration: 60))
    // Inserted out of order: the builder keeps its quantities by start date.
    try builder.insert(HKQuantity(unit: .count(), doubleValue: 30), for: DateInterval(start: seriesStart + 3_600, duration: 60))
    // "If the interval's start … is the same as the start date for a previously provided quantity,
    // this quantity replaces the previous one."
    try builder.insert(HKQuantity(unit: .count(), doubleValue: 25), for: DateInterval(start: seriesStart + 60, duration: 60))
    let samples = try await builder.finishSeries(metadata: ["Note": "series"])
    guard let sample = samples.first as? HKCumulativeQuantitySample else { usage("finishSeries returned no cumulative sample") }

    let quantities: [String] = try await withCheckedThrowingContinuation { continuation in
        let collected = Collected<String>()
        let query = HKQuantitySeriesSampleQuery(quantityType: stepType, predicate: nil) {
            query, quantity, dateInterval, quantitySample, done, error in
            if let error {
                continuation.resume(throwing: error)
                return
            }
            if let quantity, let dateInterval, quantitySample?.uuid == sample.uuid {
                collected.append("\(quantity.doubleValue(for: .count()))@\(dateInterval.start.timeIntervalSince(seriesStart))"
                                 + "+\(dateInterval.duration)\(done ? "!" : "")")
            }
            if done { continuation.resume(returning: collected.items) }
        }
        query.includeSample = true
        healthStore.execute(query)
    }

    var interval = DateComponents()
    interval.hour = 1
    let descriptor = HKStatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: stepType), options: .cumulativeSum,
                                                           anchorDate: seriesStart, intervalComponents: interval)
    let collection = try await descriptor.result(for: healthStore)
    var hourly: [String] = []
    collection.enumerateStatistics(from: seriesStart, to: seriesStart + 3_600) { statistics, _ in
        hourly.append("\(statistics.sumQuantity()?.doubleValue(for: .count()) ?? -1)")
    }
    print("ok \(sample.count) \(sample.sumQuantity.doubleValue(for: .count())) \(quantities.joined(separator: ",")) \(hourly.joined(separator: ","))")
}

/// developer.apple.com/documentation/healthkit/hkdiscretequantitysample: heart rates inserted at
/// instants (`insert(_:at:)`), finished with the completion form and an end date, fetched again
/// with a sample query and read with `HKQuantitySeriesSampleQueryDescriptor`. Prints
/// `ok COUNT QUANTITY MIN MAX AVG MOSTRECENT@OFFSET+DURATION END RESULTS MATCHED`.
func quantitySeriesHeartRateSnippet(_ healthStore: HKHealthStore) async throws {
    let heartRateType = HKQuantityType(.heartRate)
    let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
    let builder = HKQuantitySeriesSampleBuilder(healthStore: healthStore, quantityType: heartRateType, startDate: seriesStart,
                                                device: nil)
    for (offset, bpm) in [(0.0, 60.0), (30.0, 90.0), (60.0, 75.0)] {
        try builder.insert(HKQuantity(unit: beatsPerMinute, doubleValue: bpm), at: seriesStart + offset)
    }
    let _: [HKQuantitySample] = try await withCheckedThrowingContinuation { continuation in
        builder.finishSeries(metadata: nil, endDate: seriesStart + 120) { samples, error in
            if let samples { continuation.resume(returning: samples) } else { continuation.resume(throwing: error ?? HKError(.errorNoData, "finishSeries returned nothing")) }
        }
    }
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: heartRateType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) {
            query, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    guard let sample = samples.first as? HKDiscreteQuantitySample else { usage("the series was not fetched as a discrete sample") }
    func bpm(_ quantity: HKQuantity) -> String { "\(quantity.doubleValue(for: beatsPerMinute))" }

    let descriptor = HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: heartRateType),
                                                           options: [.orderByQuantitySampleStartDate])
    var results: [String] = []
    for try await result in descriptor.results(for: healthStore) {
        results.append("\(bpm(result.quantity))@\(result.dateInterval.start.timeIntervalSince(seriesStart))\(result.sample == nil ? "" : "+sample")")
    }
    // predicateForQuantitySamples compares "the sample's quantity": a series' average.
    let above = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: beatsPerMinute, doubleValue: 74))
    let matched = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRateType, predicate: above)],
                                                    sortDescriptors: []).result(for: healthStore)
    let recent = sample.mostRecentQuantityDateInterval
    print("ok \(sample.count) \(bpm(sample.quantity)) \(bpm(sample.minimumQuantity)) \(bpm(sample.maximumQuantity)) "
          + "\(bpm(sample.averageQuantity)) \(bpm(sample.mostRecentQuantity))@\(recent.start.timeIntervalSince(seriesStart))+\(recent.duration) "
          + "\(sample.endDate.timeIntervalSince(seriesStart)) \(results.joined(separator: ",")) \(matched.count)")
}

/// The builder's refusals, each HealthKit's `errorInvalidArgument`: a unit that does not fit
/// the type, a quantity before the start date, finishing with nothing inserted, an end date
/// before a quantity's end, quantities overlapping a later and an earlier one, and any use after
/// `discard()`. Prints the
/// error code of each attempt in that order, then whether the store holds any step sample.
func quantitySeriesRefusalsSnippet(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func code(_ attempt: () async throws -> Void) async -> String {
        do {
            try await attempt()
            return "none"
        } catch let error as HKError {
            return "\(error.code.rawValue)"
        } catch {
            return "other"
        }
    }
    let builder = HKQuantitySeriesSampleBuilder(healthStore: healthStore, quantityType: stepType, startDate: seriesStart, device: nil)
    var codes: [String] = []
    codes.append(await code { try builder.insert(HKQuantity(unit: .meter(), doubleValue: 1), at: seriesStart) })
    codes.append(await code { try builder.insert(HKQuantity(unit: .count(), doubleValue: 1), at: seriesStart - 1) })
    codes.append(await code { _ = try await builder.finishSeries(metadata: nil) })
    try builder.insert(HKQuantity(unit: .count(), doubleValue: 5), for: DateInterval(start: seriesStart + 60, duration: 60))
    codes.append(await code { _ = try await builder.finishSeries(metadata: nil, endDate: seriesStart + 90) })
    // Overlapping the quantity after it, then the one before it.
    codes.append(await code { try builder.insert(HKQuantity(unit: .count(), doubleValue: 5), for: DateInterval(start: seriesStart + 30, duration: 60)) })
    codes.append(await code { try builder.insert(HKQuantity(unit: .count(), doubleValue: 5), for: DateInterval(start: seriesStart + 90, duration: 60)) })
    builder.discard()
    codes.append(await code { try builder.insert(HKQuantity(unit: .count(), doubleValue: 5), at: seriesStart + 120) })
    codes.append(await code { _ = try await builder.finishSeries(metadata: nil) })
    let stored = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)], sortDescriptors: []).result(for: healthStore)
    print("ok \(codes.joined(separator: ",")) \(stored.count)")
}
