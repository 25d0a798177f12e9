import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// An observer query's acknowledgements are bound to the app and the connection that run it
/// (ObserverRegistry): an acknowledgement of another app's observer delivery, or of the same
/// app's observer from its other connection, is refused exactly like one naming no observer —
/// and does not release the update the observer holds back until it is acknowledged.
///
/// Real apps: two (three) separate `leak-probe-client` processes confined by health-sandbox,
/// speaking the protocol directly so they can name an id the SDK would never send.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ObserverAcknowledgementBindingTests {
    let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    let owner = "org.test.ack-owner", intruder = "org.test.ack-intruder", writer = "org.test.ack-writer"

    @Test func anotherAppsOrConnectionsAcknowledgementIsRefusedLikeAnUnknownID() async throws {
        let broker = try BrokerProcess()
        for app in [owner, intruder] { try await broker.install(appID: app, executable: ProbeWorld.client) }
        try await broker.installClient(writer)
        try await broker.set(owner, "read", steps, allowed: true)
        try await broker.set(intruder, "read", steps, allowed: true)
        try await broker.set(writer, "share", steps, allowed: true)

        let observing = try ProbeSession(owner, adminSocket: broker.adminSocket)
        _ = try await observing.run("open obs \(HealthStoreMethod.observeChanges.rawValue) "
                                    + ProbeTranscript.hex(TypePredicateSpec(typeIdentifier: steps).wireBytes()))
        let first = try await delivery(1, of: observing)
        #expect(first.delivery == 1)

        // A visible change while update 1 is unacknowledged: held back until the owner acknowledges.
        let start = 1_700_000_000
        #expect(try await broker.runApp(writer, ["save", steps, "10", "count", "\(start)", "\(start + 60)"]).okValue != nil)

        let foreignApp = try ProbeSession(intruder, adminSocket: broker.adminSocket)
        let otherConnection = try ProbeSession(owner, adminSocket: broker.adminSocket)
        let unknown = ObserverDelivery(observerID: first.observerID ^ 0x5A5A, delivery: 1)
        let refusedUnknown = try await acknowledge(unknown, from: foreignApp)
        #expect(refusedUnknown.first?.hasPrefix("status ") == true, "\(refusedUnknown)")
        #expect(try await acknowledge(first, from: foreignApp) == refusedUnknown, "another app acknowledged the owner's update")
        #expect(try await acknowledge(first, from: otherConnection) == refusedUnknown,
                "the owner's other connection acknowledged an observer it does not run")
        #expect(try await acknowledge(unknown, from: otherConnection) == refusedUnknown)

        // None of them released the held update…
        try await Task.sleep(for: .milliseconds(500))
        #expect(observing.watched("obs").count == 1, "\(observing.watched("obs"))")
        // …the owner's own acknowledgement on its connection does (control).
        #expect(try await acknowledge(first, from: observing).first?.hasPrefix("reply") == true)
        let second = try await delivery(2, of: observing)
        #expect(second.observerID == first.observerID)
        for session in [observing, foreignApp, otherConnection] { try await session.finish() }
    }

    /// Waits for the observer stream's `number`th message and decodes it.
    private func delivery(_ number: Int, of session: ProbeSession) async throws -> ObserverDelivery {
        let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
        while session.watched("obs").count < number, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let lines = session.watched("obs")
        guard lines.count >= number, let payload = ProbeTranscript.payload(of: lines[number - 1]) else {
            throw ProbeFailed(reason: "no observer update \(number): \(lines)")
        }
        return try ObserverDelivery(wire: payload)
    }

    /// The client's answer to an AcknowledgeObserverUpdate call: `reply …` or `status …`.
    private func acknowledge(_ delivery: ObserverDelivery, from session: ProbeSession) async throws -> [String] {
        try await session.run("unary \(HealthStoreMethod.acknowledgeObserverUpdate.rawValue) "
                              + ProbeTranscript.hex(delivery.wireBytes()))
    }
}
