import Foundation
import HealthModel
import HealthWire

/// Source revisions' product type and system version (issue 15, `SourceRevisionMatch` fields
/// 5–8, `HKSourceRevisionAnyOperatingSystem`), crossed with every read kind that takes a
/// predicate, generated: each form of the match naming the hidden app with this host's product
/// type or system (what healthd stamps on every save, the hidden app's included), alone, negated
/// and beside the app's own revision — on sample queries (default order, and newest first with
/// limit 1, where a hidden row must take no place), anchored queries, statistics, collections,
/// sources, correlation members and delete matching (a form naming only the hidden app, so the
/// app's own samples stay). The hidden app's samples carry exactly these values, so in
/// `authorized` the hidden-app forms must see them (positive control); in every other state the
/// answer is the control world's.
extension ProbeCatalog {
    static let systemForms: [(name: String, predicate: @Sendable (ProbeInputs) -> SamplePredicate, namesOnlyTheHiddenApp: Bool)] = {
        let host = HostStamp.current()
        let product = host.product
        let system = SystemVersion(parsing: host.system)
        @Sendable func hidden(_ inputs: ProbeInputs, product: String?, system: SystemVersion?) -> SourceRevisionMatch {
            SourceRevisionMatch(bundleIdentifier: inputs.hiddenApp, version: nil, productType: product, operatingSystemVersion: system)
        }
        return [
            ("the hidden app on this product type, any system", { .sourceRevisions([hidden($0, product: product, system: nil)]) }, true),
            ("the hidden app on this system, any product type", { .sourceRevisions([hidden($0, product: nil, system: system)]) }, true),
            ("the hidden app on this product type and system", { .sourceRevisions([hidden($0, product: product, system: system)]) }, true),
            ("the hidden app with nothing recorded", {
                .sourceRevisions([hidden($0, product: "", system: .unrecorded)])
            }, true),
            ("the hidden app on another product type", { .sourceRevisions([hidden($0, product: product + "-other", system: nil)]) }, true),
            ("not the hidden app on this product type", { .not(.sourceRevisions([hidden($0, product: product, system: nil)])) }, false),
            ("itself or the hidden app on this system", { inputs in
                .sourceRevisions([hidden(inputs, product: nil, system: system),
                                  SourceRevisionMatch(bundleIdentifier: inputs.probingApp, version: nil, productType: product,
                                                      operatingSystemVersion: system)])
            }, false),
        ]
    }()

    /// The positive controls of this crossing (the hidden app's heart rate on this host).
    static let systemPositiveControls = [
        "system: heart rate, the hidden app on this product type and system",
        "system: statistics, the hidden app on this system, any product type",
    ]

    static let systemPredicates: [ProbeCall] = systemForms.flatMap { form -> [ProbeCall] in
        let predicate = form.predicate
        var calls: [ProbeCall] = [
            .query("system: heart rate, \(form.name)") { SampleQuerySpec(typeIdentifier: heartRate, predicate: predicate($0)) },
            .query("system: heart rate newest first, limit 1, \(form.name)") {
                SampleQuerySpec(typeIdentifier: heartRate, predicate: predicate($0), sort: [SampleSort(.startDate, ascending: false)], limit: 1)
            },
            .stream("system: anchored heart rate, limit 2, \(form.name)", .queryAnchored) {
                AnchoredQuerySpec(typeIdentifier: heartRate, predicate: predicate($0), limit: 2).wireBytes()
            },
            .unary("system: statistics, \(form.name)", .queryStatistics) {
                StatisticsQuerySpec(typeIdentifier: heartRate, predicate: predicate($0), options: [.discreteAverage, .mostRecent]).wireBytes()
            },
            .stream("system: daily step sums, \(form.name)", .queryStatisticsCollection) {
                StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: steps, predicate: predicate($0), options: [.cumulativeSum]),
                                         anchor: dayAnchor, interval: StatisticsInterval(days: 1), timeZoneIdentifier: "UTC").wireBytes()
            },
            .unary("system: sources of heart rate, \(form.name)", .querySources) {
                TypePredicateSpec(typeIdentifier: heartRate, predicate: predicate($0)).wireBytes()
            },
            .stream("system: correlations whose systolic sample is \(form.name)", .queryCorrelations) {
                CorrelationQuerySpec(typeIdentifier: ProbeData.bloodPressure, objectPredicates: [ProbeData.systolic: predicate($0)]).wireBytes()
            },
        ]
        if form.namesOnlyTheHiddenApp {
            calls.append(.unary("system: delete heart rate matching \(form.name)", .deleteMatching) {
                MatchingDeletion(typeIdentifier: heartRate, predicate: predicate($0)).wireBytes()
            })
        }
        return calls
    }
}

extension SystemVersion {
    /// "major.minor.patch" as `HostStamp` spells it; 0.0.0 for anything else.
    init(parsing text: String) {
        let parts = text.split(separator: ".").map { Int($0) ?? 0 }
        self.init(major: parts.first ?? 0, minor: parts.dropFirst().first ?? 0, patch: parts.dropFirst(2).first ?? 0)
    }
}
