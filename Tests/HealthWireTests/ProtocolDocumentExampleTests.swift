import Testing
@testable import HealthWire

/// proto/README.md's byte-by-byte example is what the encoder really produces, so an
/// independent client written from the document interoperates.
@Suite(.timeLimit(.minutes(10))) struct ProtocolDocumentExampleTests {
    @Test func theDocumentedAuthorizationStatusCallMatchesTheEncoder() {
        let type = Array("HKQuantityTypeIdentifierStepCount".utf8)
        let method = Array("/openhealth.v1.HealthStore/AuthorizationStatus".utf8)
        let payload: [UInt8] = [0x0A, 0x21] + type
        let frame: [UInt8] = [0x08, 0x01, 0x12, 0x2E] + method + [0x18, 0x01, 0x22, 0x23] + payload
        let documented: [UInt8] = [0x00, 0x00, 0x00, 0x59] + frame

        let encoded = FrameCodec.encode(.request(1, HealthStoreMethod.authorizationStatus.rawValue,
                                                 TypeIdentifierMessage("HKQuantityTypeIdentifierStepCount").wireBytes()))
        #expect(encoded == documented)
        #expect(StatusValue(0).wireBytes().isEmpty)
    }
}
