import HealthWire
@testable import HealthKit
import Testing

@Suite(.timeLimit(.minutes(10))) struct StatusValueDecodingTests {
    @Test func knownRawValuesDecode() throws {
        #expect(try StatusValue(2).decoded(as: HKAuthorizationStatus.self) == .sharingAuthorized)
        #expect(try StatusValue(1).decoded(as: HKAuthorizationRequestStatus.self) == .shouldRequest)
    }

    @Test func unknownRawValueIsAnErrorNotAGuess() {
        #expect(throws: HKError.self) { _ = try StatusValue(9).decoded(as: HKAuthorizationStatus.self) }
    }
}
