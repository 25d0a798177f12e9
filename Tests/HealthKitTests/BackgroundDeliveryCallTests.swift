import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// The SDK's background-delivery calls against a fake broker: what goes on the wire, and
/// healthd's refusal arriving as HealthKit's error in both forms.
@Suite(.timeLimit(.minutes(10))) struct BackgroundDeliveryCallTests {
    @Test func enableAndDisableSendTheTypeAndFrequency() async throws {
        let received = Mutex<[(String, BackgroundDeliverySpec?)]>([])
        let broker = try FakeBroker { call in
            let spec = try? BackgroundDeliverySpec(wire: call.payload)
            received.withLock { $0.append((call.method, call.method == HealthStoreMethod.disableAllBackgroundDeliveries.rawValue ? nil : spec)) }
            call.responder.respond(EmptyMessage().wireBytes())
        }
        defer { broker.close() }
        let steps = HKQuantityType(.stepCount)
        try await broker.store.enableBackgroundDelivery(for: steps, frequency: .hourly)
        try await broker.store.disableBackgroundDelivery(for: steps)
        try await broker.store.disableAllBackgroundDelivery()
        let calls = received.withLock { $0 }
        #expect(calls.map(\.0) == [HealthStoreMethod.enableBackgroundDelivery, .disableBackgroundDelivery, .disableAllBackgroundDeliveries].map(\.rawValue))
        #expect(calls[0].1 == BackgroundDeliverySpec(typeIdentifier: steps.identifier, frequency: .hourly))
        #expect(calls[1].1 == BackgroundDeliverySpec(typeIdentifier: steps.identifier, frequency: nil))
    }

    @Test func aMissingEntitlementIsAuthorizationDeniedInBothForms() async throws {
        let broker = try FakeBroker { call in
            call.responder.fail(RPCStatus(HKError(.errorAuthorizationDenied, "Missing entitlement")), streaming: false)
        }
        defer { broker.close() }
        await #expect(throws: HKError(.errorAuthorizationDenied, "Missing entitlement")) {
            try await broker.store.enableBackgroundDelivery(for: HKQuantityType(.stepCount), frequency: .immediate)
        }
        let (success, error) = await withCheckedContinuation { continuation in
            broker.store.enableBackgroundDelivery(for: HKQuantityType(.stepCount), frequency: .daily) {
                continuation.resume(returning: ($0, $1))
            }
        }
        #expect(!success && (error as? HKError)?.code == .errorAuthorizationDenied)
    }
}
