// An example app that reads step counts: the last week's totals, per day. With --record N it
// first records a walk of N steps (it asks for write access then too).
//   health-sandbox run org.openhealthkit.example.steps -- step-reader-app --record 1200
import Foundation
import HealthKit

let store = HKHealthStore()
let steps = HKQuantityType(.stepCount)
let arguments = CommandLine.arguments.dropFirst()
let recordSteps: Double? = arguments.first == "--record" ? arguments.dropFirst().first.flatMap(Double.init) : nil

func stepSamples(since start: Date) async throws -> [HKQuantitySample] {
    let predicate = HKQuery.predicateForSamples(withStart: start, end: nil, options: [])
    return try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: steps, predicate: predicate, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, samples, error in
            if let error { continuation.resume(throwing: error) }
            else { continuation.resume(returning: (samples ?? []).compactMap { $0 as? HKQuantitySample }) }
        }
        store.execute(query)
    }
}

guard HKHealthStore.isHealthDataAvailable() else {
    print("step-reader-app: health data is not available (is healthd running?)")
    exit(1)
}

do {
    print("step-reader-app: asking to read Step Count\(recordSteps == nil ? "" : " and to record a walk")…")
    try await store.requestAuthorization(toShare: recordSteps == nil ? [] : [steps], read: [steps])

    if let recordSteps {
        let end = Date()
        let walk = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: recordSteps),
                                    start: end.addingTimeInterval(-15 * 60), end: end)
        do {
            try await store.save(walk)
            print("step-reader-app: recorded a walk of \(Int(recordSteps)) steps")
        } catch let error as HKError where error.code == .errorAuthorizationDenied {
            print("step-reader-app: not allowed to record steps")
        }
    }

    let calendar = Calendar.current
    let weekAgo = calendar.date(byAdding: .day, value: -6, to: calendar.startOfDay(for: Date()))!
    let samples = try await stepSamples(since: weekAgo)
    var perDay: [Date: Double] = [:]
    for sample in samples {
        perDay[calendar.startOfDay(for: sample.startDate), default: 0] += sample.quantity.doubleValue(for: .count())
    }
    print("step-reader-app: steps per day, last 7 days (\(samples.count) samples visible to this app):")
    for offset in 0..<7 {
        let day = calendar.date(byAdding: .day, value: offset, to: weekAgo)!
        print("  \(day.formatted(date: .abbreviated, time: .omitted))  \(Int(perDay[day] ?? 0))")
    }
} catch let error as HKError {
    print("step-reader-app: \(error.localizedDescription) [HKError \(error.code.rawValue)]")
    exit(1)
}
