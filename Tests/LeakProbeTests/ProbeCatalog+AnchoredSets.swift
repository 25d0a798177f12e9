import Foundation
import HealthModel
import HealthWire

/// Anchored queries over several types (`queryDescriptors:`): heart rate and steps read as one
/// feed under one anchor. The same shapes as the one-type anchored entries — from the start,
/// limits and their continuation, predicates naming hidden objects, a foreign anchor, each
/// world's own anchor continued after hidden changes of both types, and a long-running query
/// open across a hidden save — so that neither the merge, the limit counted across types, nor
/// the set's anchor shows anything the app may not read.
extension ProbeCatalog {
    static let anchoredSets: [ProbeStep] = [
        .call(anchoredQuery("anchored set, from the start") { _ in set() }),
        .call(anchoredQuery("anchored set, limit 3") { _ in set(limit: 3) }),
        .call(anchoredQuery("anchored set, the next 4 after limit 3") { set(anchor: $0.anchor(of: "anchored set, limit 3"), limit: 4) }),
        .call(anchoredQuery("anchored set, hidden UUIDs and hidden dates") {
            set(heartRate: .uuids(Set($0.hidden.samples)),
                steps: .dateRange(start: ProbeData.time(31), end: ProbeData.time(39), strictStart: true, strictEnd: true))
        }),
        .call(anchoredQuery("anchored set, a heart-rate anchor") { set(anchor: $0.anchor(of: "anchored heart rate, from the start")) }),
        .call(anchoredQuery("anchored heart rate, a set anchor") {
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: $0.anchor(of: "anchored set, from the start"))
        }),
        .hidden(replaceHiddenHeartRate),
        .hidden(HiddenAction(name: "save or replace a step sample for the set", method: .save) { runs in
            SampleList([ProbeData.steps(47, 600 + Double(runs), sync: "hidden-set-steps", version: 1 + Double(runs))]).wireBytes()
        }),
        .call(anchoredQuery("anchored set, continued after the hidden changes") { set(anchor: $0.anchor(of: "anchored set, from the start")) }),
        .call(anchoredQuery("anchored set, the limited one continued, limit 2") {
            set(anchor: $0.anchor(of: "anchored set, the next 4 after limit 3"), limit: 2)
        }),
        .call(anchoredQuery("anchored set, continued twice") { set(anchor: $0.anchor(of: "anchored set, continued after the hidden changes")) }),
        .call(.open("long-running anchored set: opened", as: "anchored-set-live", .queryAnchored) { _ in set(longRunning: true).wireBytes() }),
        .call(.watch("long-running anchored set: initial results", "anchored-set-live", of: .queryAnchored, expectingMore: true)),
        .hidden(HiddenAction(name: "save a step sample under the set query", method: .save) { runs in
            SampleList([ProbeData.steps(48, 30 + Double(runs))]).wireBytes()
        }),
        .call(.watch("long-running anchored set: after a hidden save", "anchored-set-live", of: .queryAnchored, expectingMore: false)),
        .call(.unary("own save while the set query runs", .save) { _ in SampleList([ProbeData.steps(72, 12)]).wireBytes() }),
        .call(.watch("long-running anchored set: after its own save", "anchored-set-live", of: .queryAnchored, expectingMore: true)),
        .call(.close("long-running anchored set: closed", "anchored-set-live", of: .queryAnchored)),
    ]

    /// Heart rate and steps, each with its own predicate.
    static func set(heartRate heartRatePredicate: SamplePredicate? = nil, steps stepsPredicate: SamplePredicate? = nil,
                    anchor: [UInt8] = [], limit: Int = 0, longRunning: Bool = false) -> AnchoredQuerySpec {
        AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: heartRate, predicate: heartRatePredicate),
                                        TypePredicateSpec(typeIdentifier: steps, predicate: stepsPredicate)],
                          anchor: anchor, limit: limit, longRunning: longRunning)
    }
}
