import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// An observer's predicate is checked when the observer is opened, not when a change first
/// wakes it. healthd once sent the first update of an observer whose predicate could not be
/// compiled for its type (kilograms of heart rate, a category list on a quantity type, a number
/// infinite in the stored unit) and compiled it only when a save of the type woke the query —
/// a save by any app. The query then ended with the predicate's error, so a reader that may not
/// read heart rate learned from its observer dying that another app had saved some.
///
/// Here a reader denied heart rate opens each such observer (a separate sandboxed
/// `leak-probe-client` speaking to a real healthd): the first thing on the stream must be the
/// refusal, never an update; then another app saves heart rate and nothing more may arrive.
/// Fails without `ChangeQueries.check` in `ObserverQueryService.observe` (the first line is an
/// update, and the error follows the other app's save).
@Suite(.timeLimit(.minutes(10)), .serialized) struct ObserverPredicateCheckTests {
    static let reader = "org.probe.observer-reader", writer = "org.probe.observer-writer"
    static let heartRate = ProbeData.heartRate

    /// Predicates that compile for no heart-rate query, each with the status it must be refused
    /// with: gRPC INVALID_ARGUMENT (3) carrying HKError.errorInvalidArgument (3).
    static let refused: [(name: String, predicate: SamplePredicate)] = [
        ("kilograms of heart rate", .quantity(.greaterThan, value: 1, unit: "kg")),
        ("a category list on heart rate", .not(.categoryValues([0]))),
        ("infinite in count/s", .or([.quantity(.greaterThan, value: 1e308, unit: "count/ms"), .uuids([])])),
    ]

    @Test func anObserverWithAPredicateThatCannotCompileIsRefusedWhenOpened() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        for app in [Self.reader, Self.writer] {
            try await broker.install(appID: app, executable: ProbeWorld.client)
            try await broker.set(app, "share", Self.heartRate, allowed: true)
        }
        try await broker.set(Self.reader, "read", Self.heartRate, allowed: false)
        let session = try ProbeSession(Self.reader, adminSocket: broker.adminSocket)
        for (index, (name, predicate)) in Self.refused.enumerated() {
            let stream = "observer-\(index)"
            _ = try await session.run("open \(stream) \(HealthStoreMethod.observeChanges.rawValue) "
                + ProbeTranscript.hex(TypePredicateSpec(typeIdentifier: Self.heartRate, predicate: predicate).wireBytes()))
            // A hang guard only: the answer (refusal or, wrongly, an update) comes at once.
            let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
            while session.watched(stream).isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            let first = session.watched(stream).first ?? "nothing"
            #expect(first.hasPrefix("status 3 3 "), "\(name): the observer was not refused when opened: \(session.watched(stream))")
            _ = try await session.run("close \(stream)")
        }
        // Another app's save of the type changes nothing for the reader's (refused) observers.
        let writerSession = try ProbeSession(Self.writer, adminSocket: broker.adminSocket)
        _ = try await ProbeData.save([ProbeData.heartRate(90, 1.2)], through: writerSession)
        try await writerSession.finish()
        for index in Self.refused.indices {
            #expect(session.watched("observer-\(index)").count == 1, "\(session.watched("observer-\(index)"))")
        }
        try await session.finish()
    }
}
