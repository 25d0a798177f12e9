// An example app written as HealthKit code is written on iOS: ask for heart rate, save a few
// readings, read them back. Run it under the launcher:
//   health-sandbox run org.openhealthkit.example.heartrate -- heart-rate-app
import Foundation
import HealthKit

let store = HKHealthStore()
let heartRate = HKQuantityType(.heartRate)
let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())

func readBack(since start: Date) async throws -> [HKSample] {
    let predicate = HKQuery.predicateForSamples(withStart: start, end: nil, options: [])
    let byStart = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)
    return try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: heartRate, predicate: predicate, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: [byStart]) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        }
        store.execute(query)
    }
}

guard HKHealthStore.isHealthDataAvailable() else {
    print("heart-rate-app: health data is not available (is healthd running?)")
    exit(1)
}

do {
    print("heart-rate-app: asking to read and write Heart Rate (waiting for your answer in healthctl)…")
    try await store.requestAuthorization(toShare: [heartRate], read: [heartRate])

    guard store.authorizationStatus(for: heartRate) == .sharingAuthorized else {
        print("heart-rate-app: not allowed to save Heart Rate; nothing to do")
        exit(0)
    }

    let now = Date()
    let readings = [68.0, 74.0, 71.0].enumerated().map { index, bpm in
        let time = now.addingTimeInterval(Double(index - 3) * 60)
        return HKQuantitySample(type: heartRate, quantity: HKQuantity(unit: beatsPerMinute, doubleValue: bpm),
                                start: time, end: time,
                                metadata: [HKMetadataKeyHeartRateMotionContext: 1])  // 1 = sedentary
    }
    try await store.save(readings)
    print("heart-rate-app: saved \(readings.count) readings")

    let samples = try await readBack(since: now.addingTimeInterval(-3600))
    print("heart-rate-app: read back \(samples.count) readings from the last hour:")
    let format = Date.FormatStyle(date: .omitted, time: .standard)
    for case let sample as HKQuantitySample in samples {
        let bpm = sample.quantity.doubleValue(for: beatsPerMinute)
        print("  \(sample.startDate.formatted(format))  \(Int(bpm)) bpm  (saved by \(sample.sourceRevision.source.name))")
    }
} catch let error as HKError {
    print("heart-rate-app: \(error.localizedDescription) [HKError \(error.code.rawValue)]")
    exit(1)
}
