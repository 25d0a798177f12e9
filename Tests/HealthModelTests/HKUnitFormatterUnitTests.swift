import Foundation
import HealthModel
import Testing

/// HKUnit.h's formatter bridges (developer.apple.com/documentation/healthkit/hkunit/
/// init(from:)-7h2li "Converts a mass formatter enumeration value into a corresponding HealthKit
/// unit object", …/massformatterunit(from:) "If the unit is not a mass-type unit, this method
/// throws an exception (invalidArgumentException)", and the length and energy pairs).
@Suite(.timeLimit(.minutes(10))) struct HKUnitFormatterUnitTests {
    static let mass: [(MassFormatter.Unit, String)] = [(.gram, "g"), (.kilogram, "kg"), (.ounce, "oz"), (.pound, "lb"), (.stone, "st")]
    static let length: [(LengthFormatter.Unit, String)] = [
        (.millimeter, "mm"), (.centimeter, "cm"), (.meter, "m"), (.kilometer, "km"),
        (.inch, "in"), (.foot, "ft"), (.yard, "yd"), (.mile, "mi"),
    ]
    static let energy: [(EnergyFormatter.Unit, String)] = [(.joule, "J"), (.kilojoule, "kJ"), (.calorie, "cal"), (.kilocalorie, "kcal")]

    @Test func everyFormatterUnitHasItsHealthKitUnitAndBack() {
        for (unit, string) in Self.mass {
            #expect(HKUnit(from: unit) == HKUnit(from: string), "\(unit)")
            #expect(HKUnit.massFormatterUnit(from: HKUnit(from: string)) == unit)
        }
        for (unit, string) in Self.length {
            #expect(HKUnit(from: unit) == HKUnit(from: string), "\(unit)")
            #expect(HKUnit.lengthFormatterUnit(from: HKUnit(from: string)) == unit)
        }
        for (unit, string) in Self.energy {
            #expect(HKUnit(from: unit) == HKUnit(from: string), "\(unit)")
            #expect(HKUnit.energyFormatterUnit(from: HKUnit(from: string)) == unit)
        }
    }

    /// Foundation's "calorie" is HealthKit's small calorie; HealthKit's large calorie (the food
    /// "Calorie") is Foundation's kilocalorie.
    @Test func caloriesMapAsHealthKitDefinesThem() {
        #expect(HKUnit(from: EnergyFormatter.Unit.calorie) == .smallCalorie())
        #expect(HKUnit.energyFormatterUnit(from: .largeCalorie()) == .kilocalorie)
    }

    /// Apple raises NSInvalidArgumentException for a unit of another kind, or a mass unit with
    /// no formatter unit (mg): the process ends, here as there.
    @Test func aUnitWithoutAFormatterUnitStopsTheProcess() async {
        await #expect(processExitsWith: .failure) { _ = HKUnit.massFormatterUnit(from: .meter()) }
        await #expect(processExitsWith: .failure) { _ = HKUnit.massFormatterUnit(from: .gramUnit(with: .milli)) }
        await #expect(processExitsWith: .failure) { _ = HKUnit.lengthFormatterUnit(from: .gram()) }
        await #expect(processExitsWith: .failure) { _ = HKUnit.energyFormatterUnit(from: .jouleUnit(with: .mega)) }
    }
}
