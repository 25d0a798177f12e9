import Foundation
import Testing
@testable import HealthModel

@Suite(.timeLimit(.minutes(10))) struct HKQuantityTests {
    @Test func convertsAndChecksCompatibility() {
        let distance = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5)
        #expect(distance.doubleValue(for: .meter()) == 5000)
        #expect(distance.is(compatibleWith: .mile()))
        #expect(!distance.is(compatibleWith: .second()))
        #expect(!distance.is(compatibleWith: HKUnit(from: "nonsense")))
    }

    @Test func comparesMagnitudesAcrossCompatibleUnits() {
        let mile = HKQuantity(unit: .mile(), doubleValue: 1)
        let kilometer = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)
        #expect(mile.compare(kilometer) == .orderedDescending)
        #expect(kilometer.compare(mile) == .orderedAscending)
        #expect(kilometer.compare(HKQuantity(unit: .meter(), doubleValue: 1000)) == .orderedSame)
        let body = HKQuantity(unit: .degreeCelsius(), doubleValue: 37)
        #expect(body.compare(HKQuantity(unit: .degreeFahrenheit(), doubleValue: 100)) == .orderedAscending)
    }

    @Test func ordersIncompatibleQuantitiesByUnitStringWithoutTrapping() {
        let grams = HKQuantity(unit: .gram(), doubleValue: 1)
        let meters = HKQuantity(unit: .meter(), doubleValue: 1)
        #expect(grams.compare(meters) == .orderedAscending)
        #expect(meters.compare(grams) == .orderedDescending)
        let invalid = HKQuantity(unit: HKUnit(from: "??"), doubleValue: 1)
        #expect(invalid.compare(HKQuantity(unit: HKUnit(from: "??"), doubleValue: 2)) == .orderedAscending)
    }

    @Test func equalityIsUnitAndValueAsWritten() {
        let kilometer = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)
        #expect(kilometer == HKQuantity(unit: HKUnit(from: "km"), doubleValue: 1))
        #expect(kilometer != HKQuantity(unit: .meter(), doubleValue: 1000))
        #expect(Set([kilometer, HKQuantity(unit: HKUnit(from: "km"), doubleValue: 1)]).count == 1)
    }

    @Test func descriptionNeverShowsTheValue() {
        let weight = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 81.25)
        #expect(!weight.description.contains("81"))
        #expect(weight.description.contains("kg"))
    }
}
