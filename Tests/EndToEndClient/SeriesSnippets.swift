import Foundation
import HealthKit

// Snippets for heartbeat series and electrocardiograms, written as Apple's pages show them
// (see AppleSnippets.swift). Only the `print` lines are the test's.

/// HKHeartbeatSeriesBuilder with completion handlers, then HKHeartbeatSeriesQuery over the saved
/// series, found again through `HKObjectType.seriesType(forIdentifier:)`. Prints the series'
/// count and each beat as `TIME:GAP`, then whether the query ended with done.
func heartbeatBuilderSnippet(_ healthStore: HKHealthStore) async throws {
    let startDate = Date(timeIntervalSince1970: 1_700_000_000)
    let builder = HKHeartbeatSeriesBuilder(healthStore: healthStore, device: .local(), start: startDate)
    for (interval, gap) in [(0.75, false), (1.5, false), (2.75, true)] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            builder.addHeartbeatWithTimeInterval(sinceSeriesStartDate: interval, precededByGap: gap) { success, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
    let series: HKHeartbeatSeriesSample = try await withCheckedThrowingContinuation { continuation in
        builder.finishSeries { heartbeatSeries, error in
            if let heartbeatSeries { continuation.resume(returning: heartbeatSeries) } else { continuation.resume(throwing: error ?? HKError(.errorNoData, "finishSeries returned nothing")) }
        }
    }
    guard let seriesType = HKObjectType.seriesType(forIdentifier: HKDataTypeIdentifierHeartbeatSeries) else {
        usage("*** Unable to create the heartbeat series type ***")
    }
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: seriesType, predicate: HKQuery.predicateForObject(with: series.uuid),
                                  limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    guard let sample = samples.first as? HKHeartbeatSeriesSample else { usage("the saved series was not found") }
    let beats: [String] = try await withCheckedThrowingContinuation { continuation in
        let collected = Collected<String>()
        let query = HKHeartbeatSeriesQuery(heartbeatSeries: sample) { query, timeSinceSeriesStart, precededByGap, done, error in
            if let error {
                continuation.resume(throwing: error)
                return
            }
            collected.append("\(timeSinceSeriesStart):\(precededByGap)")
            if done { continuation.resume(returning: collected.items) }
        }
        healthStore.execute(query)
    }
    print("ok \(sample.count) \(beats.joined(separator: ",")) \(sample.endDate.timeIntervalSince(startDate))")
}

/// Apple's HKElectrocardiogramQuery page: an HKSampleQuery for `electrocardiogramType()`, then
/// a voltage query per sample, switching over `.measurement`, `.done` and `.error`. Prints the
/// number of ECGs, the first one's classification and measurements, and their sum in µV.
func electrocardiogramSnippet(_ healthStore: HKHealthStore) async throws {
    let ecgType = HKObjectType.electrocardiogramType()
    let samples: [HKElectrocardiogram] = try await withCheckedThrowingContinuation { continuation in
        let ecgQuery = HKSampleQuery(sampleType: ecgType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { query, samples, error in
            if let error {
                continuation.resume(throwing: error)
                return
            }
            guard let ecgSamples = samples as? [HKElectrocardiogram] else {
                continuation.resume(returning: [])
                return
            }
            continuation.resume(returning: ecgSamples)
        }
        healthStore.execute(ecgQuery)
    }
    guard let ecgSample = samples.first else {
        print("ok 0")
        return
    }
    let voltages: [Double] = try await withCheckedThrowingContinuation { continuation in
        let collected = Collected<Double>()
        // Create a query for the voltage measurements
        let voltageQuery = HKElectrocardiogramQuery(ecgSample) { (query, result) in
            switch result {
            case .measurement(let measurement):
                if let voltageQuantity = measurement.quantity(for: .appleWatchSimilarToLeadI) {
                    collected.append(voltageQuantity.doubleValue(for: .voltUnit(with: .micro)))
                }
            case .done:
                continuation.resume(returning: collected.items)
            case .error(let error):
                continuation.resume(throwing: error)
            }
        }
        // Execute the query.
        healthStore.execute(voltageQuery)
    }
    let classification: HKElectrocardiogram.Classification = ecgSample.classification
    let symptoms = try await symptomsCounted(healthStore, ecgSample)
    print("ok \(samples.count) \(classification == .sinusRhythm ? "sinusRhythm" : "\(classification.rawValue)") "
          + "\(ecgSample.numberOfVoltageMeasurements) \(voltages.count) \(voltages.reduce(0, +).rounded()) \(symptoms)")
}

/// developer.apple.com/documentation/healthkit/hkquery/predicateforobjectsassociated(electrocardiogram:):
/// the app saves a chest-pain sample during the recording, then counts the samples that
/// predicate matches ("symptom samples associated with the specified electrocardiogram") and, as
/// a control, those of the recording's time. Only Apple's ECG app associates symptoms with a
/// recording, so here the first is 0 and the second 1. Prints `associated A during D`.
private func symptomsCounted(_ healthStore: HKHealthStore, _ ecg: HKElectrocardiogram) async throws -> String {
    let chestPain = HKCategoryType(.chestTightnessOrPain)
    try await healthStore.save(HKCategorySample(type: chestPain, value: HKCategoryValueSeverity.moderate.rawValue,
                                                start: ecg.startDate, end: ecg.endDate))
    func count(_ predicate: NSPredicate) async throws -> Int {
        try await HKSampleQueryDescriptor(predicates: [.categorySample(type: chestPain, predicate: predicate)],
                                          sortDescriptors: []).result(for: healthStore).count
    }
    let associated = try await count(HKQuery.predicateForObjectsAssociated(electrocardiogram: ecg))
    let during = try await count(HKQuery.predicateForSamples(withStart: ecg.startDate, end: ecg.endDate))
    return "associated \(associated) during \(during)"
}

/// Fetched quantity samples are HKCumulativeQuantitySample (steps) or HKDiscreteQuantitySample
/// (heart rate), with `sumQuantity` and `mostRecentQuantity`. Prints `KIND:VALUE` per sample.
func quantitySampleKindsSnippet(_ healthStore: HKHealthStore) async throws {
    var described: [String] = []
    for type in [HKQuantityType(.stepCount), HKQuantityType(.heartRate)] {
        let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: type)], sortDescriptors: [])
        for sample in try await descriptor.result(for: healthStore) {
            if let cumulative = sample as? HKCumulativeQuantitySample {
                described.append("cumulative:\(cumulative.sumQuantity.doubleValue(for: .count())):\(cumulative.count)")
            } else if let discrete = sample as? HKDiscreteQuantitySample {
                let bpm = HKUnit.count().unitDivided(by: .minute())
                described.append("discrete:\(discrete.mostRecentQuantity.doubleValue(for: bpm)):\(discrete.minimumQuantity == discrete.maximumQuantity)")
            }
        }
    }
    print("ok \(described.joined(separator: " "))")
}
