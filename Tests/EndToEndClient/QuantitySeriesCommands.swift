// e2e-client commands for quantity series (see main.swift's usage comment).
import Foundation
import HealthKit

/// `series save-quantities TYPE UNIT START VALUE@OFFSET+DURATION…`: builds a series of TYPE with
/// HKQuantitySeriesSampleBuilder from START (seconds since 1970), each quantity over
/// [START+OFFSET, +DURATION), and finishes it; prints `ok UUID COUNT END`.
/// `series query-quantities TYPE UNIT [--async]`: every quantity of every TYPE sample the app
/// can read, with HKQuantitySeriesSampleQuery (or with --async its descriptor), each sample
/// included, as `quantity VALUE START DURATION COUNT SOURCE`; prints `ok N`.
func quantitySeriesCommand(_ arguments: [String], store: HKHealthStore) async throws {
    guard arguments.count >= 4, let type = HKQuantityType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: arguments[2])) else {
        usage("series save-quantities|query-quantities TYPE UNIT …")
    }
    let unit = HKUnit(from: arguments[3])
    switch arguments[1] {
    case "save-quantities":
        guard arguments.count >= 5, let start = Double(arguments[4]) else { usage("series save-quantities TYPE UNIT START QUANTITIES…") }
        let startDate = Date(timeIntervalSince1970: start)
        let builder = HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: type, startDate: startDate, device: nil)
        for quantity in arguments.dropFirst(5) {
            let parts = quantity.split(whereSeparator: { $0 == "@" || $0 == "+" }).compactMap { Double($0) }
            guard parts.count == 3 else { usage("quantity \(quantity): VALUE@OFFSET+DURATION") }
            try builder.insert(HKQuantity(unit: unit, doubleValue: parts[0]),
                               for: DateInterval(start: startDate + parts[1], duration: parts[2]))
        }
        let samples = try await builder.finishSeries(metadata: nil)
        guard let sample = samples.first else { usage("finishSeries returned no sample") }
        print("ok \(sample.uuid.uuidString) \(sample.count) \(sample.endDate.timeIntervalSince1970)")
    case "query-quantities":
        var lines: [String] = []
        func line(_ quantity: HKQuantity, _ interval: DateInterval, _ sample: HKQuantitySample?) -> String {
            "quantity \(quantity.doubleValue(for: unit)) \(interval.start.timeIntervalSince1970) \(interval.duration) "
                + "\(sample?.count ?? -1) \(sample?.sourceRevision.source.bundleIdentifier ?? "-")"
        }
        if arguments.contains("--async") {
            let descriptor = HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: type), options: .includeSample)
            for try await result in descriptor.results(for: store) { lines.append(line(result.quantity, result.dateInterval, result.sample)) }
        } else {
            lines = try await withCheckedThrowingContinuation { continuation in
                let collected = Collected<String>()
                let query = HKQuantitySeriesSampleQuery(quantityType: type, predicate: nil) { _, quantity, interval, sample, done, error in
                    if let error {
                        continuation.resume(throwing: error)
                        return
                    }
                    if let quantity, let interval { collected.append(line(quantity, interval, sample)) }
                    if done { continuation.resume(returning: collected.items) }
                }
                query.includeSample = true
                store.execute(query)
            }
        }
        for entry in lines { print(entry) }
        print("ok \(lines.count)")
    default:
        usage("unknown series command \(arguments[1])")
    }
}
