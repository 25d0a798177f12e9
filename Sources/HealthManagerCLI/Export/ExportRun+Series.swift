import Foundation
import HealthModel
import HealthWire

/// Electrocardiograms in an Apple-layout export: each ECG sample in the range (and of the
/// sources asked for), with its voltages read through QuerySeriesData, one recording in memory
/// at a time, written by the sink as Apple's CSV under `electrocardiograms/`.
extension ExportRun {
    static let heartRateVariability = HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue

    /// The beats of the heartbeat series saved with an HRV sample — same source, same start —
    /// or none. Apple's export keeps them only inside the HRV record; a series saved without an
    /// HRV sample beside it has no place in that format.
    func heartbeats(besides hrv: SampleRecord) async throws(HealthCtlError) -> [Heartbeat] {
        guard let source = hrv.source else { return [] }
        let spec = SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierHeartbeatSeries,
                                   predicate: .and([.dateRange(start: hrv.startDate, end: hrv.startDate.addingTimeInterval(0.001),
                                                               strictStart: true, strictEnd: false),
                                                    .sources([source.bundleIdentifier])]),
                                   sort: [SampleSort(.startDate, ascending: true)], limit: 1)
        for try await batch in client.querySamples(spec) {
            guard let series = batch.samples.first else { continue }
            var beats: [Heartbeat] = []
            for try await chunk in client.querySeriesData(series.uuid, typeIdentifier: HKDataTypeIdentifierHeartbeatSeries) {
                if case let .heartbeats(more) = chunk.points { beats += more }
            }
            return beats
        }
        return []
    }

    func exportElectrocardiograms(into sink: any ExportSink) async throws(HealthCtlError) -> Int {
        var written = 0
        var spec = SampleQuerySpec(typeIdentifier: HKElectrocardiogramTypeIdentifier)
        var parts: [SamplePredicate] = []
        if start != nil || end != nil { parts.append(.dateRange(start: start, end: end, strictStart: false, strictEnd: false)) }
        if !sources.isEmpty { parts.append(.sources(Set(sources))) }
        spec.predicate = parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
        spec.sort = [SampleSort(.startDate, ascending: true)]
        for try await batch in client.querySamples(spec) {
            for sample in batch.samples {
                var voltages: [Double] = []
                for try await chunk in client.querySeriesData(sample.uuid, typeIdentifier: HKElectrocardiogramTypeIdentifier) {
                    if case let .voltages(more) = chunk.points { voltages += more }
                }
                try sink.addElectrocardiogram(sample, voltages: voltages)
                written += 1
            }
        }
        return written
    }
}
