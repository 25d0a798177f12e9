import Foundation
import HealthModel
import HealthWire

/// Medications and dose events (iOS 26): every query kind that applies to them — sample (with
/// sort and limit), anchored (from the start, and continued after the user logged a dose of the
/// hidden medication and deleted another), anchored over both types as one feed, sources,
/// statistics and collections (neither type has values to compute over: the refusal must not
/// depend on hidden rows), a long-running anchored query and observers (all doses, and the hidden
/// concept's) open across the later doses, and the per-object request for the dose type —
/// crossed with every medication predicate (generated: each log status, each concept, scheduled
/// dates and ranges, archived and schedule flags, a NOT, a UUID naming a hidden object) on both
/// types. Run by `MedicationLeakTests` in two worlds that differ only in the medications the
/// probing app was not allowed to read (or was, and lost), and their doses.
extension ProbeCatalog {
    static let doseType = HKMedicationDoseEventTypeIdentifierMedicationDoseEvent
    static let medicationType = HKDataTypeIdentifierUserAnnotatedMedicationConcept

    /// Predicates over both types: each one alone, then a few compounds.
    static var medicationPredicates: [(name: String, predicate: @Sendable (ProbeInputs) -> SamplePredicate?)] {
        var predicates: [(name: String, predicate: @Sendable (ProbeInputs) -> SamplePredicate?)] = [("no predicate", { _ in nil })]
        for status in MedicationDoseEventValue.logStatuses {
            predicates.append(("status \(MedicationDoseEventValue.logStatusNames[status - 1])", { @Sendable _ in .medication(.logStatuses([status])) }))
        }
        for concept in [MedicationProbeData.grantedConcept, MedicationProbeData.hiddenConcept, "never-added"] {
            predicates.append(("concept \(concept)", { @Sendable _ in .medication(.conceptIdentifiers([concept])) }))
        }
        predicates += [
            ("both concepts", { @Sendable _ in .medication(.conceptIdentifiers([MedicationProbeData.grantedConcept, MedicationProbeData.hiddenConcept])) }),
            ("scheduled any time", { @Sendable _ in .medication(.scheduledRange(start: nil, end: nil)) }),
            ("scheduled at the hidden dose's time", { @Sendable _ in .medication(.scheduledDates([MedicationProbeData.hiddenScheduled])) }),
            ("scheduled around the hidden dose", { @Sendable _ in
                .medication(.scheduledRange(start: MedicationProbeData.hiddenScheduled - 60, end: MedicationProbeData.hiddenScheduled + 60))
            }),
            ("archived", { @Sendable _ in .medication(.isArchived(true)) }),
            ("not archived", { @Sendable _ in .medication(.isArchived(false)) }),
            ("has a schedule", { @Sendable _ in .medication(.hasSchedule(true)) }),
            ("not taken", { @Sendable _ in .not(.medication(.logStatuses([4]))) }),
            ("taken or skipped, during the hidden doses", { @Sendable _ in
                .and([.medication(.logStatuses([4, 5])), .dateRange(start: MedicationProbeData.hiddenScheduled - 3_600,
                                                                     end: MedicationProbeData.hiddenScheduled + 3_600, strictStart: false, strictEnd: false)])
            }),
            ("the hidden objects' UUIDs", { @Sendable inputs in .uuids(Set(inputs.hidden.samples)) }),
        ]
        return predicates
    }

    static var medicationQueries: [ProbeCall] {
        var calls: [ProbeCall] = []
        for (typeName, type) in [("doses", doseType), ("medications", medicationType)] {
            for (name, predicate) in medicationPredicates {
                calls.append(.query("\(typeName), \(name)") { SampleQuerySpec(typeIdentifier: type, predicate: predicate($0)) })
            }
            calls += [
                .query("\(typeName), newest first, limit 1") { _ in
                    SampleQuerySpec(typeIdentifier: type, sort: [SampleSort(.startDate, ascending: false)], limit: 1)
                },
                .query("\(typeName), oldest first, limit 1") { _ in
                    SampleQuerySpec(typeIdentifier: type, sort: [SampleSort(.startDate, ascending: true)], limit: 1)
                },
                .stream("anchored \(typeName), from the start", .queryAnchored) { _ in AnchoredQuerySpec(typeIdentifier: type).wireBytes() },
                .stream("anchored \(typeName), hidden concept, from the start", .queryAnchored) { _ in
                    AnchoredQuerySpec(typeIdentifier: type, predicate: .medication(.conceptIdentifiers([MedicationProbeData.hiddenConcept]))).wireBytes()
                },
                .unary("sources of \(typeName)", .querySources) { _ in TypePredicateSpec(typeIdentifier: type).wireBytes() },
                statisticsQuery("statistics of \(typeName)", type, [.cumulativeSum]),
                statisticsQuery("statistics of \(typeName), the hidden concept", type, [.discreteAverage, .mostRecent],
                                .medication(.conceptIdentifiers([MedicationProbeData.hiddenConcept]))),
                collection("collection of \(typeName), daily", type, [.cumulativeSum], StatisticsInterval(days: 1)),
                .unary("sources of \(typeName), the hidden objects' UUIDs", .querySources) {
                    TypePredicateSpec(typeIdentifier: type, predicate: .uuids(Set($0.hidden.samples))).wireBytes()
                },
            ]
        }
        calls += [
            .stream("anchored doses and medications, from the start", .queryAnchored) { _ in medicationSet().wireBytes() },
            .stream("anchored doses and medications, limit 2", .queryAnchored) { _ in medicationSet(limit: 2).wireBytes() },
            .stream("anchored doses and medications, the rest after limit 2", .queryAnchored) {
                medicationSet(anchor: $0.anchor(of: "anchored doses and medications, limit 2")).wireBytes()
            },
            .stream("anchored doses of the hidden concept and medications archived", .queryAnchored) { _ in
                AnchoredQuerySpec(descriptors: [
                    TypePredicateSpec(typeIdentifier: doseType, predicate: .medication(.conceptIdentifiers([MedicationProbeData.hiddenConcept]))),
                    TypePredicateSpec(typeIdentifier: medicationType, predicate: .medication(.isArchived(true))),
                ]).wireBytes()
            },
        ]
        calls.append(.unary("per-object request for the dose type", .requestPerObjectReadAuthorization) { _ in
            SampleQuerySpec(typeIdentifier: doseType).wireBytes()
        })
        return calls
    }

    /// Doses and medications as one feed (`queryDescriptors:`).
    static func medicationSet(anchor: [UInt8] = [], limit: Int = 0) -> AnchoredQuerySpec {
        AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: doseType), TypePredicateSpec(typeIdentifier: medicationType)],
                          anchor: anchor, limit: limit)
    }

    /// Long-running queries opened before the user logs the later doses: an anchored query of
    /// doses, an observer of doses and an observer of the hidden concept's doses (each answers
    /// once at once; the observers' first updates are acknowledged).
    static var medicationLiveQueries: [ProbeCall] {
        var calls: [ProbeCall] = [
            .open("long-running anchored doses: opened", as: "doses-live", .queryAnchored) { _ in
                AnchoredQuerySpec(typeIdentifier: doseType, longRunning: true).wireBytes()
            },
            .watch("long-running anchored doses: initial results", "doses-live", of: .queryAnchored, expectingMore: true),
        ]
        let observers: [(stream: String, name: String, predicate: SamplePredicate?)] = [
            ("doses-observer", "observer of doses", nil),
            ("hidden-concept-observer", "observer of the hidden concept's doses", .medication(.conceptIdentifiers([MedicationProbeData.hiddenConcept]))),
        ]
        for observer in observers {
            calls += [
                .open("\(observer.name): opened", as: observer.stream, .observeChanges) { _ in
                    TypePredicateSpec(typeIdentifier: doseType, predicate: observer.predicate).wireBytes()
                },
                .watch("\(observer.name): first update", observer.stream, of: .observeChanges, expectingMore: true),
                .unary("\(observer.name): acknowledge the first update", .acknowledgeObserverUpdate) {
                    ($0.observerUpdates[observer.stream] ?? ObserverDelivery(observerID: 0, delivery: 0)).wireBytes()
                },
            ]
        }
        return calls
    }

    /// What the long-running queries delivered after the later doses, then closed. Only an app
    /// that reads the granted medication must be told of its later dose (`expectingUpdates`);
    /// the hidden concept's observer must stay silent for every app that cannot read it.
    static func medicationLiveResults(expectingUpdates: Bool) -> [ProbeCall] {
        [
            .watch("long-running anchored doses: after the later doses", "doses-live", of: .queryAnchored, expectingMore: expectingUpdates),
            .watch("observer of doses: after the later doses", "doses-observer", of: .observeChanges, expectingMore: expectingUpdates),
            .watch("observer of the hidden concept's doses: after the later doses", "hidden-concept-observer", of: .observeChanges,
                   expectingMore: false),
            .close("long-running anchored doses: closed", "doses-live", of: .queryAnchored),
            .close("observer of doses: closed", "doses-observer", of: .observeChanges),
            .close("observer of the hidden concept's doses: closed", "hidden-concept-observer", of: .observeChanges),
        ]
    }

    /// The anchored queries continued after the user logged another dose of each medication
    /// (`MedicationProbeData.laterDoses`; the hidden one's only in the world that has it).
    static var medicationContinuations: [ProbeCall] {
        [("doses", doseType), ("medications", medicationType)].map { typeName, type in
            .stream("anchored \(typeName), continued after the later doses", .queryAnchored) {
                AnchoredQuerySpec(typeIdentifier: type, anchor: $0.anchor(of: "anchored \(typeName), from the start")).wireBytes()
            }
        } + [
            .stream("anchored doses and medications, continued after the later doses", .queryAnchored) {
                medicationSet(anchor: $0.anchor(of: "anchored doses and medications, from the start")).wireBytes()
            },
            .stream("anchored medications, from the start after the later doses", .queryAnchored) { _ in
                AnchoredQuerySpec(typeIdentifier: medicationType).wireBytes()
            },
        ]
    }

    /// Steps that must differ between the worlds for an app allowed the hidden medication too:
    /// one per query kind, which shows the probe would see a leak.
    static let medicationPositiveControls = [
        "doses, no predicate", "medications, no predicate", "doses, concept hidden-med", "doses, status skipped",
        "anchored doses, from the start", "anchored doses, continued after the later doses", "sources of doses, the hidden objects' UUIDs",
        "medications, archived", "doses, the hidden objects' UUIDs",
        "anchored doses and medications, from the start", "anchored doses and medications, continued after the later doses",
    ]
}
