import Foundation
import HealthModel
import HealthWire

/// Audiograms, CDA documents, clinical records and vision prescriptions: each kind's sample,
/// anchored (continued after a hidden change, which shows deleted objects too), source and
/// observer queries, the clinical FHIR-resource predicate, and UUID predicates naming the hidden
/// objects. The clinical and vision steps also run alone in the states that vary one of those
/// kinds' own rules (`ProbeState.steps`), where the other kinds stay readable.
extension ProbeCatalog {
    static let audiogram = ProbeData.audiogram
    static let cda = ProbeData.cda
    static let vision = ProbeData.vision
    static let allergy = ProbeData.allergy

    static let recordKinds: [ProbeStep] = recordQueries.map(ProbeStep.call) + recordChanges

    /// The steps over clinical records, or over vision prescriptions (with the hidden changes):
    /// what the states varying one clinical or vision rule compare.
    static let clinicalSteps = recordKinds.filter { step in
        if case .call = step { return clinicalStepNames.contains(step.name) } else { return false }
    }
    static let visionSteps = recordKinds.filter { step in
        if case .call = step { return step.name.localizedStandardContains("prescription") } else { return true }
    }
    static let clinicalStepNames: Set<String> = Set(recordKinds.map(\.name).filter {
        $0.localizedStandardContains("allergy") || $0.localizedStandardContains("lab result")
    })

    static let recordPositiveControls = [
        "audiograms", "CDA documents", "allergy records", "vision prescriptions",
        // (Not the vision continuation or observer: the hidden app's later prescriptions are not
        // granted, so even `authorized` must not see them.)
        "anchored vision prescriptions, from the start", "anchored CDA documents, continued after the hidden changes",
        "allergy records, FHIR resource AllergyIntolerance", "vision prescriptions, the hidden one's UUID",
        "allergy records, the imported one's UUID", "sources of vision prescriptions", "sources of audiograms",
        "anchored allergy records, from the start",
        // The deletion of the prescription it was granted.
        "anchored vision prescriptions, continued after the hidden prescription's deletion",
        "anchored vision prescriptions, from the start after the deletion",
        // A per-object grant crossed with order and limit: the granted one is the oldest.
        "vision prescriptions, oldest first, limit 1", "anchored set of prescriptions and own systolic, the rest",
    ]

    static let recordQueries: [ProbeCall] = [
        .query("audiograms") { _ in SampleQuerySpec(typeIdentifier: audiogram) },
        .query("audiograms, the hidden one's UUID") { SampleQuerySpec(typeIdentifier: audiogram, predicate: .uuids([$0.hidden.audiogram])) },
        .query("CDA documents") { _ in SampleQuerySpec(typeIdentifier: cda) },
        .query("CDA documents, limit 1") { _ in SampleQuerySpec(typeIdentifier: cda, limit: 1) },
        .query("CDA documents, the hidden ones' UUIDs") { SampleQuerySpec(typeIdentifier: cda, predicate: .uuids(Set($0.hidden.documents))) },
        .query("allergy records") { _ in SampleQuerySpec(typeIdentifier: allergy) },
        .query("lab result records") { _ in SampleQuerySpec(typeIdentifier: ProbeData.labResult) },
        .query("allergy records, FHIR resource AllergyIntolerance") { _ in
            SampleQuerySpec(typeIdentifier: allergy, predicate: .fhirResource(resourceType: "AllergyIntolerance", identifier: nil))
        },
        .query("allergy records, FHIR resource and id") { _ in
            SampleQuerySpec(typeIdentifier: allergy, predicate: .fhirResource(resourceType: "AllergyIntolerance", identifier: "allergy-1"))
        },
        .query("allergy records, a FHIR resource type nobody imported") { _ in
            SampleQuerySpec(typeIdentifier: allergy, predicate: .fhirResource(resourceType: "Condition", identifier: nil))
        },
        .query("allergy records, the imported one's UUID") { SampleQuerySpec(typeIdentifier: allergy, predicate: .uuids([$0.hidden.clinicalRecord])) },
        .query("vision prescriptions") { _ in SampleQuerySpec(typeIdentifier: vision) },
        .query("vision prescriptions, the hidden one's UUID") { SampleQuerySpec(typeIdentifier: vision, predicate: .uuids([$0.hidden.prescription])) },
        .query("vision prescriptions, source: the hidden app") { SampleQuerySpec(typeIdentifier: vision, predicate: .sources([$0.hiddenApp])) },
        .unary("sources of audiograms", .querySources) { _ in TypePredicateSpec(typeIdentifier: audiogram).wireBytes() },
        .unary("sources of CDA documents", .querySources) { _ in TypePredicateSpec(typeIdentifier: cda).wireBytes() },
        // A document query's offer (per-document consent): the same reply whether the app may
        // read the type, and whether there was anything to offer (session 16).
        .unary("offer of CDA documents", .offerDocuments) { _ in SampleQuerySpec(typeIdentifier: cda).wireBytes() },
        .unary("sources of allergy records", .querySources) { _ in TypePredicateSpec(typeIdentifier: allergy).wireBytes() },
        .unary("sources of vision prescriptions", .querySources) { _ in TypePredicateSpec(typeIdentifier: vision).wireBytes() },
        .unary("sources of vision prescriptions, the hidden one's UUID", .querySources) {
            TypePredicateSpec(typeIdentifier: vision, predicate: .uuids([$0.hidden.prescription])).wireBytes()
        },
    ] + perObjectCombinations

    /// Per-object grants crossed with the shapes the type-wide probes vary (session 10 red
    /// team): sort and limit (the hidden prescription, minute 40, is the oldest), an anchored
    /// limit and its continuation, an anchored set of prescriptions and the app's own systolic pressure (a
    /// per-object scope beside a type-wide one in one feed), a metadata and a date predicate, and deleting
    /// the hidden prescription, which must look like deleting one that does not exist
    /// (`changeTwins`), whatever the app may read.
    static let perObjectCombinations: [ProbeCall] = [
        .query("vision prescriptions, oldest first, limit 1") { _ in
            SampleQuerySpec(typeIdentifier: vision, sort: [SampleSort(.startDate, ascending: true)], limit: 1)
        },
        .query("vision prescriptions, newest first, limit 1") { _ in
            SampleQuerySpec(typeIdentifier: vision, sort: [SampleSort(.startDate, ascending: false)], limit: 1)
        },
        .query("vision prescriptions, the hidden one's minute") { _ in
            SampleQuerySpec(typeIdentifier: vision, predicate: .dateRange(start: ProbeData.time(40), end: ProbeData.time(41),
                                                                          strictStart: false, strictEnd: true))
        },
        .query("vision prescriptions, NOT the hidden one's UUID") {
            SampleQuerySpec(typeIdentifier: vision, predicate: .not(.uuids([$0.hidden.prescription])))
        },
        anchoredQuery("anchored vision prescriptions, limit 1") { _ in AnchoredQuerySpec(typeIdentifier: vision, limit: 1) },
        anchoredQuery("anchored vision prescriptions, the next after limit 1") {
            AnchoredQuerySpec(typeIdentifier: vision, anchor: $0.anchor(of: "anchored vision prescriptions, limit 1"), limit: 1)
        },
        // The other type is the app's own systolic pressure (a source predicate): the vision
        // states keep every other type readable, so another app's samples — or, as deletions
        // are reported whatever the predicate, another app's replaced heart rate — would differ
        // between the worlds there. Nobody deletes systolic samples in the probe.
        anchoredQuery("anchored set of prescriptions and own systolic, limit 2") {
            AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: vision),
                                            TypePredicateSpec(typeIdentifier: ProbeData.systolic, predicate: .sources([$0.probingApp]))],
                              limit: 2)
        },
        anchoredQuery("anchored set of prescriptions and own systolic, the rest") {
            AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: ProbeData.systolic, predicate: .sources([$0.probingApp])),
                                            TypePredicateSpec(typeIdentifier: vision)],
                              anchor: $0.anchor(of: "anchored set of prescriptions and own systolic, limit 2"))
        },
        .unary("delete the hidden prescription by UUID", .deleteObjects) {
            ObjectDeletion([ObjectReference(typeIdentifier: vision, uuid: $0.hidden.prescription)]).wireBytes()
        },
        .unary("delete a prescription that does not exist", .deleteObjects) { _ in
            ObjectDeletion([ObjectReference(typeIdentifier: vision, uuid: freshUUID)]).wireBytes()
        },
        .unary("delete matching the hidden prescription's UUID", .deleteMatching) {
            MatchingDeletion(typeIdentifier: vision, predicate: .uuids([$0.hidden.prescription])).wireBytes()
        },
        .query("vision prescriptions after the delete attempts") { _ in SampleQuerySpec(typeIdentifier: vision) },
    ]

    /// Anchored queries from the start, the hidden app's new document and prescription and a
    /// deleted document, then each world's anchors continued; an observer of prescriptions open
    /// across the hidden save and the app's own.
    static let recordChanges: [ProbeStep] = [
        .call(anchoredQuery("anchored audiograms, from the start") { _ in AnchoredQuerySpec(typeIdentifier: audiogram) }),
        .call(anchoredQuery("anchored CDA documents, from the start") { _ in AnchoredQuerySpec(typeIdentifier: cda) }),
        .call(anchoredQuery("anchored allergy records, from the start") { _ in AnchoredQuerySpec(typeIdentifier: allergy) }),
        .call(anchoredQuery("anchored allergy records, FHIR resource AllergyIntolerance") { _ in
            AnchoredQuerySpec(typeIdentifier: allergy, predicate: .fhirResource(resourceType: "AllergyIntolerance", identifier: nil))
        }),
        .call(anchoredQuery("anchored vision prescriptions, from the start") { _ in AnchoredQuerySpec(typeIdentifier: vision) }),
        .call(.open("observer of vision prescriptions: opened", as: "vision-observer", .observeChanges) { _ in
            TypePredicateSpec(typeIdentifier: vision).wireBytes()
        }),
        .call(.watch("observer of vision prescriptions: first update", "vision-observer", of: .observeChanges, expectingMore: true)),
        .call(.unary("observer of vision prescriptions: acknowledge the first update", .acknowledgeObserverUpdate) {
            ($0.observerUpdates["vision-observer"] ?? ObserverDelivery(observerID: 0, delivery: 0)).wireBytes()
        }),
        .hidden(HiddenAction(name: "save a document and a prescription", method: .save) { runs in
            SampleList([
                SampleRecord(uuid: UUID(), typeIdentifier: ProbeData.cda, startDate: ProbeData.time(30 + runs), endDate: ProbeData.time(30 + runs),
                             value: .document(DocumentValue(data: Data("<ClinicalDocument>late \(runs)</ClinicalDocument>".utf8)))),
                ProbeData.prescription(-1.5 - Double(runs) / 4, minute: 50 + runs),
            ]).wireBytes()
        }),
        .hidden(HiddenAction(name: "delete a document", method: .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: ProbeData.cda, predicate: .dateRange(start: ProbeData.time(20), end: ProbeData.time(21),
                                                                                  strictStart: false, strictEnd: true)).wireBytes()
        }),
        .call(.watch("observer of vision prescriptions: after a hidden save", "vision-observer", of: .observeChanges, expectingMore: false)),
        .call(.unary("own prescription saved while the observer runs", .save) { _ in
            SampleList([ProbeData.prescription(-3, minute: 90)]).wireBytes()
        }),
        .call(.watch("observer of vision prescriptions: after its own save", "vision-observer", of: .observeChanges, expectingMore: true)),
        .call(.close("observer of vision prescriptions: closed", "vision-observer", of: .observeChanges)),
        .call(anchoredQuery("anchored audiograms, continued after the hidden changes") {
            AnchoredQuerySpec(typeIdentifier: audiogram, anchor: $0.anchor(of: "anchored audiograms, from the start"))
        }),
        .call(anchoredQuery("anchored CDA documents, continued after the hidden changes") {
            AnchoredQuerySpec(typeIdentifier: cda, anchor: $0.anchor(of: "anchored CDA documents, from the start"))
        }),
        .call(anchoredQuery("anchored allergy records, continued") {
            AnchoredQuerySpec(typeIdentifier: allergy, anchor: $0.anchor(of: "anchored allergy records, from the start"))
        }),
        .call(anchoredQuery("anchored vision prescriptions, continued after the hidden changes") {
            AnchoredQuerySpec(typeIdentifier: vision, anchor: $0.anchor(of: "anchored vision prescriptions, from the start"))
        }),
        .call(.query("vision prescriptions after the changes") { _ in SampleQuerySpec(typeIdentifier: vision) }),
        .call(.query("CDA documents after the changes") { _ in SampleQuerySpec(typeIdentifier: cda) }),
        // The deletion of the hidden prescription (minute 40) is reported to the app that holds
        // a grant for it (`authorized`), and to no app whose grant was revoked first or that
        // never held one: for them it is as if it never existed. Later states find it deleted
        // already (the deletion matches nothing then); `authorized` runs first.
        .hidden(HiddenAction(name: "delete the hidden prescription", method: .deleteMatching) { _ in
            MatchingDeletion(typeIdentifier: vision, predicate: .dateRange(start: ProbeData.time(40), end: ProbeData.time(41),
                                                                           strictStart: false, strictEnd: true)).wireBytes()
        }),
        .call(anchoredQuery("anchored vision prescriptions, continued after the hidden prescription's deletion") {
            AnchoredQuerySpec(typeIdentifier: vision, anchor: $0.anchor(of: "anchored vision prescriptions, continued after the hidden changes"))
        }),
        .call(anchoredQuery("anchored vision prescriptions, from the start after the deletion") { _ in AnchoredQuerySpec(typeIdentifier: vision) }),
    ]
}
