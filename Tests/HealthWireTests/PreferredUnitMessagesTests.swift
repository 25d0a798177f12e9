import HealthModel
import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct PreferredUnitMessagesTests {
    @Test func requestsAndAnswersRoundTrip() throws {
        let request = PreferredUnitsRequest(typeIdentifiers: [HKQuantityTypeIdentifier.bodyMass.rawValue, HKQuantityTypeIdentifier.height.rawValue],
                                            measurementSystem: "uk")
        #expect(try PreferredUnitsRequest(wire: request.wireBytes()) == request)
        let answer = PreferredUnitList([PreferredUnit(typeIdentifier: HKQuantityTypeIdentifier.bodyMass.rawValue, unit: "st"),
                                        PreferredUnit(typeIdentifier: HKQuantityTypeIdentifier.bloodGlucose.rawValue, unit: "mmol<180.1558800000541>/L")])
        #expect(try PreferredUnitList(wire: answer.wireBytes()) == answer)
        let reset = PreferredUnit(typeIdentifier: HKQuantityTypeIdentifier.bodyMass.rawValue, unit: "")
        #expect(try PreferredUnit(wire: reset.wireBytes()) == reset)
    }
}
