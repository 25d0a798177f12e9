import Foundation
import HealthModel
import HealthWire

/// Anchored, observer and source queries.
///
/// Anchors are sealed with a fresh random nonce, so their bytes differ from call to call even
/// with nothing hidden; the transcript replaces them by their length. What an anchor *means* —
/// the position it stands for — is compared by continuing from it after the hidden app changed
/// its data (a replacement, so a deletion and an addition, and a new sample): each world's own
/// anchor is fed back, and the continuations must match byte for byte.
extension ProbeCatalog {
    static let anchored: [ProbeStep] = [
        .call(anchoredQuery("anchored heart rate, from the start") { _ in AnchoredQuerySpec(typeIdentifier: heartRate) }),
        .call(anchoredQuery("anchored heart rate, limit 2") { _ in AnchoredQuerySpec(typeIdentifier: heartRate, limit: 2) }),
        .call(anchoredQuery("anchored heart rate, the next 3 after limit 2") {
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: $0.anchor(of: "anchored heart rate, limit 2"), limit: 3)
        }),
        .call(anchoredQuery("anchored steps, from the start") { _ in AnchoredQuerySpec(typeIdentifier: steps) }),
        .call(anchoredQuery("anchored heart rate, dates of hidden samples only") { _ in
            AnchoredQuerySpec(typeIdentifier: heartRate, predicate: .dateRange(start: ProbeData.time(58), end: ProbeData.time(70),
                                                                              strictStart: false, strictEnd: false))
        }),
        .call(anchoredQuery("anchored heart rate, hidden UUIDs") {
            AnchoredQuerySpec(typeIdentifier: heartRate, predicate: .uuids(Set($0.hidden.samples)))
        }),
        .call(anchoredQuery("anchored heart rate, a steps anchor") {
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: $0.anchor(of: "anchored steps, from the start"))
        }),
        .hidden(replaceHiddenHeartRate),
        .hidden(HiddenAction(name: "save or replace a step sample", method: .save) { runs in
            SampleList([ProbeData.steps(45, 800 + Double(runs), sync: "hidden-steps", version: 1 + Double(runs))]).wireBytes()
        }),
        .call(anchoredQuery("anchored heart rate, continued after the hidden change") {
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: $0.anchor(of: "anchored heart rate, from the start"))
        }),
        .call(anchoredQuery("anchored heart rate, the limited one continued, limit 1") {
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: $0.anchor(of: "anchored heart rate, the next 3 after limit 2"), limit: 1)
        }),
        .call(anchoredQuery("anchored steps, continued after the hidden change") {
            AnchoredQuerySpec(typeIdentifier: steps, anchor: $0.anchor(of: "anchored steps, from the start"))
        }),
        .call(anchoredQuery("anchored heart rate, hidden dates only, continued") {
            AnchoredQuerySpec(typeIdentifier: heartRate,
                              predicate: .dateRange(start: ProbeData.time(58), end: ProbeData.time(70), strictStart: false, strictEnd: false),
                              anchor: $0.anchor(of: "anchored heart rate, dates of hidden samples only"))
        }),
        .call(anchoredQuery("anchored heart rate, continued twice") {
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: $0.anchor(of: "anchored heart rate, continued after the hidden change"))
        }),
        .call(anchoredQuery("anchored, a forged anchor") { _ in
            AnchoredQuerySpec(typeIdentifier: heartRate, anchor: [UInt8](repeating: 0, count: 46))
        }),
    ]

    /// Source queries: the apps behind the visible samples.
    static let sources: [ProbeCall] = [
        .unary("sources of heart rate", .querySources) { _ in TypePredicateSpec(typeIdentifier: heartRate).wireBytes() },
        .unary("sources of steps, dates of hidden samples only", .querySources) { _ in
            TypePredicateSpec(typeIdentifier: steps, predicate: .dateRange(start: ProbeData.time(31), end: ProbeData.time(39),
                                                                           strictStart: true, strictEnd: true)).wireBytes()
        },
        .unary("sources of heart rate, hidden UUIDs", .querySources) {
            TypePredicateSpec(typeIdentifier: heartRate, predicate: .uuids(Set($0.hidden.samples))).wireBytes()
        },
        .unary("sources of a type nobody saved", .querySources) { _ in
            TypePredicateSpec(typeIdentifier: HKQuantityTypeIdentifier.bodyMass.rawValue).wireBytes()
        },
        .unary("sources of a characteristic type", .querySources) { _ in
            TypePredicateSpec(typeIdentifier: HKCharacteristicTypeIdentifier.bloodType.rawValue).wireBytes()
        },
    ]

    /// Long-running anchored and observer queries stay open while the hidden app saves: no
    /// message may follow (a bounded wait), while the app's own save must produce one.
    static let longRunning: [ProbeStep] = [
        .call(.open("long-running anchored: opened", as: "anchored-live", .queryAnchored) { _ in
            AnchoredQuerySpec(typeIdentifier: heartRate, longRunning: true).wireBytes()
        }),
        .call(.watch("long-running anchored: initial results", "anchored-live", of: .queryAnchored, expectingMore: true)),
        .call(.open("observer: opened", as: "observer", .observeChanges) { _ in TypePredicateSpec(typeIdentifier: heartRate).wireBytes() }),
        .call(.watch("observer: first update", "observer", of: .observeChanges, expectingMore: true)),
        .call(.unary("observer: acknowledge the first update", .acknowledgeObserverUpdate) {
            ($0.observerUpdates["observer"] ?? ObserverDelivery(observerID: 0, delivery: 0)).wireBytes()
        }),
        .hidden(HiddenAction(name: "save a heart rate sample", method: .save) { runs in
            SampleList([ProbeData.heartRate(65, 1.9 + Double(runs) / 100)]).wireBytes()
        }),
        .call(.watch("observer: after a hidden save", "observer", of: .observeChanges, expectingMore: false)),
        .call(.watch("long-running anchored: after a hidden save", "anchored-live", of: .queryAnchored, expectingMore: false)),
        .call(.unary("own save while the queries run", .save) { _ in SampleList([ProbeData.heartRate(70, 2.5)]).wireBytes() }),
        .call(.watch("observer: after its own save", "observer", of: .observeChanges, expectingMore: true)),
        .call(.watch("long-running anchored: after its own save", "anchored-live", of: .queryAnchored, expectingMore: true)),
        .call(.close("observer: closed", "observer", of: .observeChanges)),
        .call(.close("long-running anchored: closed", "anchored-live", of: .queryAnchored)),
    ]

    /// Replaces the hidden app's `hidden-sync-1` sample by a higher version each time: a
    /// deletion and an addition in one change.
    static let replaceHiddenHeartRate = HiddenAction(name: "replace a synced heart rate sample", method: .save) { runs in
        SampleList([ProbeData.heartRate(0, 1.0 + Double(runs) / 100, sync: ProbeData.hiddenSyncIdentifiers[0],
                                        version: 3 + Double(runs))]).wireBytes()
    }

    static func anchoredQuery(_ name: String, _ spec: @escaping @Sendable (ProbeInputs) -> AnchoredQuerySpec) -> ProbeCall {
        .stream(name, .queryAnchored) { spec($0).wireBytes() }
    }
}
