import HealthModel
import Testing

@testable import HealthBroker

/// healthd's own refusal of a type read per object (vision prescriptions) in a type-wide read
/// set, whatever the SDK did: HealthKit's rule (developer.apple.com/documentation/healthkit/
/// hkobjecttype/requiresperobjectauthorization(): such types are read only through
/// requestPerObjectReadAuthorization) with the message apps see from HealthKit.
@Suite(.timeLimit(.minutes(10))) struct PerObjectReadRequestTests {
    static let app = AppManifest(id: "org.example.optician", displayName: "Optician", executable: "/usr/bin/optician", version: "1",
                                 readUsageDescription: "reads", shareUsageDescription: "writes")
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    @Test func aReadSetNamingVisionPrescriptionsIsRefused() {
        #expect {
            _ = try ValidatedAuthorizationRequest(app: Self.app, share: [], read: [Self.steps, Self.vision])
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument
                && (error as? HKError)?.message == "Authorization to read the following types is disallowed: HKVisionPrescriptionTypeIdentifier"
        }
    }

    @Test func sharingVisionPrescriptionsIsAnOrdinaryRequest() throws {
        let request = try ValidatedAuthorizationRequest(app: Self.app, share: [Self.vision], read: [Self.steps])
        #expect(request.shareTypes == [Self.vision])
        #expect(request.readTypes == [Self.steps])
    }

    /// The manager's grant edits pass the same check: no type-wide read grant can be made.
    @Test func theManagersReadGrantIsRefusedToo() {
        #expect(throws: HKError.self) { try ValidatedAuthorizationRequest.checkReadable(Self.vision) }
        #expect(throws: Never.self) { try ValidatedAuthorizationRequest.checkReadable(Self.steps) }
    }
}
