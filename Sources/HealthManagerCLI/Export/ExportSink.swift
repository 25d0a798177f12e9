import Foundation
import HealthModel

/// A workout route with its locations, read for an export that writes routes.
struct ExportedRoute {
    var uuid: UUID
    var startDate: Date
    var endDate: Date
    var locations: [RouteLocation]
}

/// One output format of `healthctl export`. Samples arrive type by type, oldest first; the sink
/// writes each as it comes (nothing is held but the current type's file), stages everything
/// privately (`StagedOutput`), and only `finish` puts the result in place.
protocol ExportSink: AnyObject {
    /// Whether workouts should come with their routes' locations.
    var wantsRoutes: Bool { get }
    func add(_ sample: SampleRecord, routes: [ExportedRoute]) throws(HealthCtlError)
    /// Whether electrocardiograms should be written, with their voltages (Apple's layout only).
    var wantsElectrocardiograms: Bool { get }
    func addElectrocardiogram(_ sample: SampleRecord, voltages: [Double]) throws(HealthCtlError)
    func add(_ sample: SampleRecord, heartbeats: [Heartbeat]) throws(HealthCtlError)
    func finish() throws(HealthCtlError)
    /// Removes what was staged; called when the export does not finish.
    func discard()
}

extension ExportSink {
    var wantsElectrocardiograms: Bool { false }
    /// An HRV sample with the beats of its heartbeat series; formats without a place for them
    /// write the sample alone.
    func add(_ sample: SampleRecord, heartbeats: [Heartbeat]) throws(HealthCtlError) { try add(sample, routes: []) }
    func addElectrocardiogram(_ sample: SampleRecord, voltages: [Double]) throws(HealthCtlError) {}
}
