@testable import HealthBroker
import HealthModel
import Testing

/// A stored unit choice reaches an app only while it is still a unit of the type
/// (`PreferredUnitService.answer`): `healthctl units set` accepted `pm^24/Tm^23` for a distance
/// before session 16, and such a choice, kept in a store, would have been handed to every app
/// asking, which reads every distance in it as +inf (now it does not parse at all).
@Suite(.timeLimit(.minutes(10))) struct PreferredUnitAnswerTests {
    static let distance = HKObjectType.type(forIdentifier: HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue) as? HKQuantityType

    @Test(arguments: MeasurementSystem.allCases)
    func aChoiceThatNoLongerParsesOrFitsGivesTheDefault(_ system: MeasurementSystem) throws {
        let type = try #require(Self.distance)
        let fallback = PreferredUnitDefaults.unit(for: type, in: system).unitString
        #expect(PreferredUnitService.answer("mi", for: type, in: system) == "mi")
        #expect(PreferredUnitService.answer(nil, for: type, in: system) == fallback)
        for stale in ["pm^24/Tm^23", "Tm^24/pm^23", "kg", "furlongs", ""] {
            #expect(PreferredUnitService.answer(stale, for: type, in: system) == fallback, "\(stale)")
        }
    }
}
