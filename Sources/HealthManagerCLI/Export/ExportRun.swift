import Foundation
import HealthModel
import HealthWire

/// The reading half of `healthctl export`: queries healthd type by type (oldest first, in the
/// batches it streams) and hands each sample to the sink as it arrives, so memory holds one
/// batch — plus, for a workout, its routes — whatever the store's size.
///
/// A correlation's samples are also samples of their own types and are written under those too,
/// as Apple's export does ("Any Records that appear as children of a correlation also appear as
/// top-level records", its DTD says); the import stores them once (`ImportedCorrelations`).
struct ExportRun {
    let client: ManagerClient
    let types: [String]
    let start: Date?
    let end: Date?
    /// Only samples of these sources (bundle identifiers), when not empty.
    var sources: [String] = []

    /// Samples written, by type, in the order exported.
    struct Summary {
        var counts: [(type: String, count: Int)] = []
        var routes = 0
        var electrocardiograms = 0
        var total: Int { counts.reduce(0) { $0 + $1.count } }
    }

    /// Every type an export holds by default: samples of every quantity, category, correlation
    /// and workout type (routes travel with their workouts), states of mind, assessments,
    /// audiograms, documents, clinical records and prescriptions.
    static var allTypes: [String] {
        HKObjectType.allTypes.filter {
            $0 is HKQuantityType || $0 is HKCategoryType || $0 is HKCorrelationType || $0 is HKWorkoutType || $0 is HKScoredAssessmentType
                || $0 is HKAudiogramSampleType || $0 is HKDocumentType || $0 is HKClinicalType
                || $0 is HKPrescriptionType || $0 is HKStateOfMindType
        }
            .map(\.identifier)
    }

    /// Correlations first, workouts last, the rest in between, each group by name.
    static func ordered(_ types: [String]) -> [String] {
        func rank(_ type: String) -> Int {
            switch HKObjectType.type(forIdentifier: type) {
            case is HKCorrelationType: 0
            case is HKWorkoutType: 2
            default: 1
            }
        }
        return Set(types).sorted { (rank($0), $0) < (rank($1), $1) }
    }

    func run(into sink: any ExportSink, progress: (_ typesDone: Int, _ typesTotal: Int, _ samples: Int) -> Void) async throws(HealthCtlError) -> Summary {
        var summary = Summary()
        let ordered = Self.ordered(types)
        for (index, type) in ordered.enumerated() {
            var count = 0
            for try await batch in client.querySamples(spec(type)) {
                for sample in batch.samples {
                    var routes: [ExportedRoute] = []
                    if sink.wantsRoutes, case .workout = sample.value {
                        routes = try await self.routes(of: sample.uuid)
                        summary.routes += routes.count
                    }
                    if sink.wantsElectrocardiograms, type == Self.heartRateVariability {
                        try sink.add(sample, heartbeats: try await heartbeats(besides: sample))
                    } else {
                        try sink.add(sample, routes: routes)
                    }
                    count += 1
                }
                progress(index, ordered.count, summary.total + count)
            }
            if count > 0 { summary.counts.append((type, count)) }
        }
        if sink.wantsElectrocardiograms {
            summary.electrocardiograms = try await exportElectrocardiograms(into: sink)
        }
        try sink.finish()
        return summary
    }

    /// Samples overlapping the range (and of the sources asked for), oldest first.
    private func spec(_ type: String) -> SampleQuerySpec {
        var parts: [SamplePredicate] = []
        if start != nil || end != nil { parts.append(.dateRange(start: start, end: end, strictStart: false, strictEnd: false)) }
        if !sources.isEmpty { parts.append(.sources(Set(sources))) }
        let predicate: SamplePredicate? = parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
        return SampleQuerySpec(typeIdentifier: type, predicate: predicate, sort: [SampleSort(.startDate, ascending: true)])
    }

    /// The routes associated with a workout, each with all its locations.
    private func routes(of workout: UUID) async throws(HealthCtlError) -> [ExportedRoute] {
        try await client.workoutRoutes(of: workout).map {
            ExportedRoute(uuid: $0.route.uuid, startDate: $0.route.startDate, endDate: $0.route.endDate, locations: $0.locations)
        }
    }
}
