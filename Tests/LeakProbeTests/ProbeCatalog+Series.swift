import Foundation
import HealthModel
import HealthWire

/// Heartbeat series, ECG voltages and quantity series (QuerySeriesData): the hidden app's series
/// must read exactly like a series that does not exist, under its own type and named as another.
extension ProbeCatalog {
    static let series: [ProbeCall] = [
        .query("heartbeat series") { _ in SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierHeartbeatSeries) },
        .stream("heartbeats of the hidden series", .querySeriesData) {
            SeriesDataQuery(sampleUUID: $0.hidden.heartbeatSeries, typeIdentifier: HKDataTypeIdentifierHeartbeatSeries).wireBytes()
        },
        .stream("heartbeats of a series that does not exist", .querySeriesData) { _ in
            SeriesDataQuery(sampleUUID: freshUUID, typeIdentifier: HKDataTypeIdentifierHeartbeatSeries).wireBytes()
        },
        .stream("voltages of the hidden series, named as an ECG", .querySeriesData) {
            SeriesDataQuery(sampleUUID: $0.hidden.heartbeatSeries, typeIdentifier: HKElectrocardiogramTypeIdentifier).wireBytes()
        },
        .stream("series data of a type that holds none", .querySeriesData) {
            SeriesDataQuery(sampleUUID: $0.hidden.heartbeatSeries, typeIdentifier: ProbeData.heartRate).wireBytes()
        },
        // HKQuantitySeriesSampleQuery: a quantity sample's quantities, under the type's read scope.
        .stream("quantities of the hidden series", .querySeriesData) {
            SeriesDataQuery(sampleUUID: $0.hidden.quantitySeries, typeIdentifier: ProbeData.heartRate).wireBytes()
        },
        .stream("quantities of a sample that does not exist", .querySeriesData) { _ in
            SeriesDataQuery(sampleUUID: freshUUID, typeIdentifier: ProbeData.heartRate).wireBytes()
        },
        .stream("quantities of the hidden series, named as steps", .querySeriesData) {
            SeriesDataQuery(sampleUUID: $0.hidden.quantitySeries, typeIdentifier: ProbeData.steps).wireBytes()
        },
        .stream("quantities of a hidden single heart rate sample", .querySeriesData) {
            SeriesDataQuery(sampleUUID: $0.hidden.samples[2], typeIdentifier: ProbeData.heartRate).wireBytes()
        },
    ]
}
