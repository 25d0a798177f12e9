import Foundation
import HealthModel
import HealthWire
import Testing

/// Background delivery's payloads survive encoding; a frequency HealthKit does not have is refused.
@Suite(.timeLimit(.minutes(10))) struct BackgroundMessagesTests {
    @Test func requestsAndListsRoundTrip() throws {
        for spec in [BackgroundDeliverySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount", frequency: .weekly),
                     BackgroundDeliverySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount", frequency: nil)] {
            #expect(try BackgroundDeliverySpec(wire: spec.wireBytes()) == spec)
        }
        for query in [BackgroundRegistrationQuery(appID: "org.example.a"), BackgroundRegistrationQuery(appID: nil)] {
            #expect(try BackgroundRegistrationQuery(wire: query.wireBytes()) == query)
        }
        let list = BackgroundRegistrationList([
            BackgroundDeliveryRegistration(appID: "org.example.a", typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                           frequency: .hourly, enabledDate: Date(microsecondsSince1970: 1_700_000_000_123_456)),
        ])
        #expect(try BackgroundRegistrationList(wire: list.wireBytes()) == list)
        let launch = LaunchRequest(requestID: 9, appID: "org.example.a", executable: "/opt/a/bin/a",
                                   typeIdentifiers: ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"])
        #expect(try LaunchRequest(wire: launch.wireBytes()) == launch)
    }

    @Test func anUnknownFrequencyIsRefused() throws {
        var bytes = BackgroundDeliverySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount", frequency: .immediate).wireBytes()
        // Field 2 (frequency) is the last varint: 0x10 0x01. Make it 5.
        #expect(bytes.suffix(2) == [0x10, 0x01])
        bytes[bytes.count - 1] = 5
        #expect(throws: WireDecodeError.self) { try BackgroundDeliverySpec(wire: bytes) }
    }
}
