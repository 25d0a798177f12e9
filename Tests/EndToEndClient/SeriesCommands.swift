// e2e-client commands for heartbeat series and electrocardiograms (see main.swift's usage comment).
import Foundation
import HealthKit

/// `series save-heartbeats START BEATS…` (each beat `TIME` or `TIME+gap`, seconds after START):
/// builds a series with HKHeartbeatSeriesBuilder and finishes it; prints `ok UUID COUNT END`.
/// `series query-heartbeats [--async]`: every heartbeat series the app can read, oldest first,
/// each as `series UUID COUNT SOURCE` then `beat TIME GAP DONE` lines (HKHeartbeatSeriesQuery,
/// or with --async HKHeartbeatSeriesQueryDescriptor); prints `ok N`.
/// `series query-ecgs [--async]`: every ECG the app can read, as `ecg UUID COUNT HZ CLASS SYMPTOMS
/// BPM` and a `voltages N FIRST_T LAST_T SUM_µV` line; prints `ok N`.
/// `series save-quantities|query-quantities …`: quantity series (QuantitySeriesCommands.swift).
func seriesCommand(_ arguments: [String], store: HKHealthStore) async throws {
    guard arguments.count >= 2 else { usage("series save-heartbeats|query-heartbeats|query-ecgs …") }
    switch arguments[1] {
    case "save-quantities", "query-quantities":
        try await quantitySeriesCommand(arguments, store: store)
    case "save-heartbeats":
        guard arguments.count >= 3, let start = Double(arguments[2]) else { usage("series save-heartbeats START BEATS…") }
        let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: Date(timeIntervalSince1970: start))
        for beat in arguments.dropFirst(3) {
            let gap = beat.hasSuffix("+gap")
            guard let time = Double(gap ? String(beat.dropLast(4)) : beat) else { usage("beat \(beat)") }
            try await builder.addHeartbeat(at: time, precededByGap: gap)
        }
        try await builder.addMetadata(["Note": "e2e"])
        let series = try await builder.finishSeries()
        print("ok \(series.uuid.uuidString) \(series.count) \(series.endDate.timeIntervalSince1970)")
    case "query-heartbeats":
        let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: HKSeriesType.heartbeat())],
                                                 sortDescriptors: [SortDescriptor(\.startDate)])
        let samples = try await descriptor.result(for: store).compactMap { $0 as? HKHeartbeatSeriesSample }
        for series in samples {
            print("series \(series.uuid.uuidString) \(series.count) \(series.sourceRevision.source.bundleIdentifier)")
            try await printBeats(of: series, store: store, async: arguments.contains("--async"))
        }
        print("ok \(samples.count)")
    case "query-ecgs":
        let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: HKObjectType.electrocardiogramType())],
                                                 sortDescriptors: [SortDescriptor(\.startDate)])
        let ecgs = try await descriptor.result(for: store).compactMap { $0 as? HKElectrocardiogram }
        for ecg in ecgs {
            let hertz = ecg.samplingFrequency?.doubleValue(for: .hertz()).description ?? "-"
            let bpm = ecg.averageHeartRate?.doubleValue(for: HKUnit.count().unitDivided(by: .minute())).description ?? "-"
            print("ecg \(ecg.uuid.uuidString) \(ecg.numberOfVoltageMeasurements) \(hertz) \(ecg.classification.rawValue) "
                  + "\(ecg.symptomsStatus.rawValue) \(bpm)")
            var measurements: [HKElectrocardiogram.VoltageMeasurement] = []
            if arguments.contains("--async") {
                for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) { measurements.append(measurement) }
            } else {
                measurements = try await withCheckedThrowingContinuation { continuation in
                    let collected = Collected<HKElectrocardiogram.VoltageMeasurement>()
                    let query = HKElectrocardiogramQuery(ecg) { _, result in
                        switch result {
                        case let .measurement(measurement): collected.append(measurement)
                        case .done: continuation.resume(returning: collected.items)
                        case let .error(error): continuation.resume(throwing: error)
                        }
                    }
                    store.execute(query)
                }
            }
            let microvolts = measurements.compactMap { $0.quantity(for: .appleWatchSimilarToLeadI)?.doubleValue(for: .voltUnit(with: .micro)) }
            print("voltages \(measurements.count) \(measurements.first?.timeSinceSampleStart ?? -1) "
                  + "\(measurements.last?.timeSinceSampleStart ?? -1) \(microvolts.reduce(0, +).rounded())")
        }
        print("ok \(ecgs.count)")
    default:
        usage("unknown series command \(arguments[1])")
    }
}

private func printBeats(of series: HKHeartbeatSeriesSample, store: HKHealthStore, async: Bool) async throws {
    if async {
        for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) {
            print("beat \(beat.timeIntervalSinceStart) \(beat.precededByGap)")
        }
        return
    }
    let lines: [String] = try await withCheckedThrowingContinuation { continuation in
        let collected = Collected<String>()
        let query = HKHeartbeatSeriesQuery(heartbeatSeries: series) { _, timeSinceSeriesStart, precededByGap, done, error in
            if let error {
                continuation.resume(throwing: error)
                return
            }
            collected.append("beat \(timeSinceSeriesStart) \(precededByGap) \(done)")
            if done { continuation.resume(returning: collected.items) }
        }
        store.execute(query)
    }
    for line in lines { print(line) }
}

/// Items a query's handler collects across calls (handlers are @Sendable).
final class Collected<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Item] = []
    func append(_ item: Item) { lock.withLock { stored.append(item) } }
    var items: [Item] { lock.withLock { stored } }
}
