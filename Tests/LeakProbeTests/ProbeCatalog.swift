import Foundation
import HealthModel
import HealthWire

/// Every step of the leak probe, in order: one entry per request shape of every app method
/// that exists. A new query kind is covered by adding its entries here (see README.md); the
/// suite then compares its responses in every permission state.
enum ProbeCatalog {
    static let heartRate = ProbeData.heartRate
    static let steps = ProbeData.steps
    static let everything = SamplePredicate.dateRange(start: ProbeData.time(-600), end: ProbeData.time(600), strictStart: false, strictEnd: false)

    static let all: [ProbeStep] = {
        let plainCalls: [ProbeCall] = status + queries + malformed
        var steps: [ProbeStep] = plainCalls.map(ProbeStep.call)
        steps += anchored
        steps += statistics.map(ProbeStep.call)
        steps += sources.map(ProbeStep.call)
        steps += (correlations + characteristics + workouts + changes + series).map(ProbeStep.call)
        steps += activity
        steps += longRunning
        steps += anchoredSets
        // Before recordKinds, whose hidden changes delete the hidden prescription.
        steps += attachments.map(ProbeStep.call)
        steps += recordKinds
        steps += kindPredicates
        steps += workoutEffort.map(ProbeStep.call)
        steps += systemPredicates.map(ProbeStep.call)
        steps += saves.map(ProbeStep.call)
        return steps
    }()

    /// The entries whose answers must differ between the worlds for an app allowed to read: one
    /// per kind of query, so each kind's probe is shown able to see hidden data.
    static let positiveControls = [
        "heart rate, default order", "anchored heart rate, continued after the hidden change",
        "anchored steps, from the start", "statistics: step sum", "statistics: heart rate average, min, max",
        "collection: daily step sums", "sources of heart rate", "observer: after a hidden save",
        "long-running anchored: after a hidden save", "correlations: blood pressure", "anchored blood pressure, from the start",
        "sources of blood pressure", "characteristic: blood type",
        "workouts", "heart rate in the hidden workout", "route data of the hidden route", "heartbeats of the hidden series",
        "quantities of the hidden series",
        "activity: every day, UTC", "activity: days with hidden data only", "activity: the day both saved on, after a hidden save",
        "activity with updates: after a hidden save",
        "anchored set, from the start", "anchored set, continued after the hidden changes",
        "long-running anchored set: after a hidden save",
        "kind: workouts burning over 100 kcal", "kind anchored: workouts with a walking activity, from the start",
        "kind sources: workouts with an energy sum over 100 kcal", "kind statistics: heart rate not in a workout over 100 kcal",
        "kind observer: after a hidden save", "kind long-running anchored: after a hidden save",
        "effort relationships", "effort scores related to the hidden workout", "effort relationships of its own workout",
        "effort scores related to its own workout",
    ] + systemPositiveControls + recordPositiveControls

    /// Status calls: the app's view of its own permissions.
    static let status: [ProbeCall] = [
        .unary("request status, read heart rate", .getRequestStatus) { _ in AuthorizationTypes(share: [], read: [heartRate]).wireBytes() },
        .unary("request status, share and read", .getRequestStatus) { _ in AuthorizationTypes(share: [heartRate, steps], read: [heartRate, steps]).wireBytes() },
        .unary("authorization status, heart rate", .authorizationStatus) { _ in TypeIdentifierMessage(heartRate).wireBytes() },
        .unary("authorization status, step count", .authorizationStatus) { _ in TypeIdentifierMessage(steps).wireBytes() },
    ]

    /// Sample queries: every predicate kind, both sorts, limits.
    static let queries: [ProbeCall] = [
        .query("heart rate, default order") { _ in SampleQuerySpec(typeIdentifier: heartRate) },
        .query("heart rate, start ascending") { _ in SampleQuerySpec(typeIdentifier: heartRate, sort: [SampleSort(.startDate, ascending: true)]) },
        .query("heart rate, end descending") { _ in SampleQuerySpec(typeIdentifier: heartRate, sort: [SampleSort(.endDate, ascending: false)]) },
        .query("heart rate, limit 1") { _ in SampleQuerySpec(typeIdentifier: heartRate, sort: [SampleSort(.startDate, ascending: true)], limit: 1) },
        .query("heart rate, newest 2") { _ in SampleQuerySpec(typeIdentifier: heartRate, sort: [SampleSort(.startDate, ascending: false)], limit: 2) },
        .query("heart rate, limit larger than everything") { _ in SampleQuerySpec(typeIdentifier: heartRate, limit: 1000) },
        .query("date range over everything") { _ in SampleQuerySpec(typeIdentifier: heartRate, predicate: everything) },
        .query("strict date range") { _ in
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .dateRange(start: ProbeData.time(10), end: ProbeData.time(51), strictStart: true, strictEnd: true))
        },
        .query("date range holding only hidden samples") { _ in
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .dateRange(start: ProbeData.time(58), end: ProbeData.time(70), strictStart: false, strictEnd: false))
        },
        .query("own UUIDs") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .uuids(Set($0.ownUUIDs))) },
        .query("hidden UUIDs") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .uuids(Set($0.hidden.samples))) },
        .query("own and hidden UUIDs, limit 2") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .uuids(Set($0.ownUUIDs + $0.hidden.samples)), limit: 2) },
        .query("hidden UUIDs, step count type") { SampleQuerySpec(typeIdentifier: steps, predicate: .uuids(Set($0.hidden.samples))) },
        .query("source: the hidden app") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .sources([$0.hiddenApp])) },
        .query("source: itself") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .sources([$0.probingApp])) },
        .query("source: not itself") { SampleQuerySpec(typeIdentifier: heartRate, predicate: .not(.sources([$0.probingApp]))) },
        .query("source revision: the hidden app, any version") {
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .sourceRevisions([SourceRevisionMatch(bundleIdentifier: $0.hiddenApp, version: nil)]))
        },
        .query("source revision: not the hidden app without a version") {
            SampleQuerySpec(typeIdentifier: heartRate,
                            predicate: .not(.sourceRevisions([SourceRevisionMatch(bundleIdentifier: $0.hiddenApp, version: .some(nil))])))
        },
        .query("compound: (range or hidden UUIDs) and not hidden source") { inputs in
            SampleQuerySpec(typeIdentifier: heartRate, predicate: .and([
                .or([.dateRange(start: ProbeData.time(20), end: nil, strictStart: true, strictEnd: false), .uuids(Set(inputs.hidden.samples))]),
                .not(.sources([inputs.hiddenApp])),
            ]), sort: [SampleSort(.endDate, ascending: true)], limit: 3)
        },
        .query("empty and / or") { _ in SampleQuerySpec(typeIdentifier: heartRate, predicate: .or([.and([]), .or([])])) },
        .query("step count, everything") { _ in SampleQuerySpec(typeIdentifier: steps, predicate: everything) },
        .query("a type nobody saved") { _ in SampleQuerySpec(typeIdentifier: HKQuantityTypeIdentifier.bodyMass.rawValue) },
    ]

    /// Requests the broker must refuse: the same error whatever is stored.
    static let malformed: [ProbeCall] = [
        // The wire carries the limit unsigned: -1 arrives as a huge limit, not as an error.
        .query("limit -1") { _ in SampleQuerySpec(typeIdentifier: heartRate, limit: -1) },
        .query("unknown type") { _ in SampleQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierNoSuchThing") },
        .query("characteristic type") { _ in SampleQuerySpec(typeIdentifier: HKCharacteristicTypeIdentifier.dateOfBirth.rawValue) },
        .stream("bytes that are no message", .querySamples) { _ in [0x0A, 0xFF, 0xFF] },
        .unary("authorization status of an unknown type", .authorizationStatus) { _ in TypeIdentifierMessage("HKNoSuchType").wireBytes() },
        .unary("request status naming no types", .getRequestStatus) { _ in AuthorizationTypes(share: [], read: []).wireBytes() },
        .unary("save of nothing", .save) { _ in SampleList([]).wireBytes() },
    ]

    /// Saves: a fresh one, one claiming a hidden object's UUID, one reusing a hidden sync
    /// identifier — all three must look alike — then a query that sees what they stored.
    static let saves: [ProbeCall] = [
        .unary("save a fresh sample", .save) { _ in SampleList([ProbeData.heartRate(40, 2.0)]).wireBytes() },
        .unary("save with a hidden object's UUID", .save) { inputs in
            var record = ProbeData.heartRate(41, 2.1)
            record.uuid = inputs.hidden.samples[2]
            return SampleList([record]).wireBytes()
        },
        .unary("save with a hidden sync identifier", .save) { inputs in
            SampleList([ProbeData.heartRate(42, 2.2, sync: ProbeData.hiddenSyncIdentifiers[0])]).wireBytes()
        },
        .query("heart rate after the saves") { _ in SampleQuerySpec(typeIdentifier: heartRate, sort: [SampleSort(.startDate, ascending: true)]) },
    ]
}
