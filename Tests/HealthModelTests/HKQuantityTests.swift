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

    /// Apple prints a quantity as its number and unit string, as `print(quantity)` shows in any
    /// HealthKit app ("72 count/min"); ports that put `"\(sample.quantity)"` in a label rely on it.
    @Test func descriptionIsTheNumberAndTheUnitStringAsApplesIs() {
        #expect(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 81.25).description == "81.25 kg")
        #expect(HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72).description == "72 count/min")
        #expect(HKQuantity(unit: .meter(), doubleValue: -0.5).description == "-0.5 m")
        #expect(HKQuantity(unit: .count(), doubleValue: 1e20).description == "1e+20 count")
        #expect(HKQuantity(unit: .count(), doubleValue: .infinity).description == "inf count")
    }
}
