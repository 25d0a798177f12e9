import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// An observer update held back until the app acknowledges the previous one is decided when it
/// is sent, not when the change happened (DESIGN.md §7.6, issue 18.1): another app saves while
/// update 1 is unacknowledged; the user revokes the observer's read access (or its temporary
/// grant expires, or its window narrows past the sample); the acknowledgement that follows must
/// not release an update. No save happens after the loss — a new save would be re-checked
/// anyway. The control is the same sequence without the loss (the last check of the binding
/// test, and the `.none` case here).
@Suite(.serialized, .timeLimit(.minutes(10))) struct HeldObserverUpdateRevocationTests {
    let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    let reader = "org.test.held-reader", writer = "org.test.held-writer"

    enum Loss: String, CaseIterable, CustomStringConvertible {
        case none, revoke, expire, narrowWindow
        var description: String { rawValue }
    }

    @Test(arguments: Loss.allCases) func aHeldUpdateIsRecheckedWhenAcknowledged(_ loss: Loss) async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: reader, executable: ProbeWorld.client)
        try await broker.installClient(writer)
        if loss == .expire {
            // An hour, so that no machine is too slow for the set-up under it; the expiry is an
            // explicit step below.
            #expect(try await broker.healthctl(["grant", reader, "read", steps, "--for", "1h"]).status == 0)
        } else {
            try await broker.set(reader, "read", steps, allowed: true)
        }
        try await broker.set(writer, "share", steps, allowed: true)

        let session = try ProbeSession(reader, adminSocket: broker.adminSocket)
        _ = try await session.run("open obs \(HealthStoreMethod.observeChanges.rawValue) "
                                  + ProbeTranscript.hex(TypePredicateSpec(typeIdentifier: steps).wireBytes()))
        let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
        while session.watched("obs").isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        guard let line = session.watched("obs").first, let payload = ProbeTranscript.payload(of: line) else {
            throw ProbeFailed(reason: "no first observer update: \(session.watched("obs"))")
        }
        let first = try ObserverDelivery(wire: payload)

        // A sample from 2023, visible to the reader now; held back behind update 1.
        #expect(try await broker.runApp(writer, ["save", steps, "10", "count", "1700000000", "1700000060"]).okValue != nil)
        try await Task.sleep(for: .milliseconds(300))
        switch loss {
        case .none:
            break
        case .revoke:
            try await broker.set(reader, "read", steps, allowed: false)
        case .expire:
            // Shortened to 1 s; healthd's expiry scheduler logs the expiry once it has passed.
            #expect(try await broker.healthctl(["grant", reader, "read", steps, "--for", "1s"]).status == 0)
            let until = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
            while !broker.log.contains("temporary grant expired"), Date() < until { try await Task.sleep(for: .milliseconds(20)) }
            try #require(broker.log.contains("temporary grant expired"), "no expiry in healthd's log: \(broker.log)")
        case .narrowWindow:
            #expect(try await broker.healthctl(["grant", reader, "read", steps, "--window", "30d"]).status == 0)
        }

        let acknowledged = try await session.run("unary \(HealthStoreMethod.acknowledgeObserverUpdate.rawValue) "
                                                 + ProbeTranscript.hex(first.wireBytes()))
        #expect(acknowledged.first?.hasPrefix("reply") == true, "\(acknowledged)")
        if loss == .none {
            let until = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
            while session.watched("obs").count < 2, Date() < until { try await Task.sleep(for: .milliseconds(10)) }
            #expect(session.watched("obs").count == 2, "the held update was never sent: \(session.watched("obs"))")
        } else {
            // A wrong broker sends it within milliseconds of the acknowledgement.
            try await Task.sleep(for: .seconds(1))
            #expect(session.watched("obs").count == 1, "sent after \(loss): \(session.watched("obs"))")
        }
        try await session.finish()
    }
}
