public import Foundation

/// HealthKit's bridges between `HKUnit` and Foundation's formatter units (HKUnit.h's
/// `NSMassFormatter`, `NSLengthFormatter` and `NSEnergyFormatter` categories), for apps that
/// show a quantity with `MassFormatter` & co. in the user's preferred unit.
///
/// Each formatter unit has exactly one HealthKit unit, and the reverse accepts exactly those
/// units (plus `largeCalorie()`, which HealthKit also maps to `.kilocalorie`). Apple documents
/// the reverse for any other unit as raising `NSInvalidArgumentException`, which ends the app;
/// here it stops the process with `preconditionFailure` naming the unit — the same outcome,
/// since Swift cannot catch that exception either. When the unit comes from data (a
/// preferred unit, a sample's unit), compare it with the units listed here first.
extension HKUnit {
    /// `+unitFromMassFormatterUnit:`: gram, kilogram, ounce, pound or stone.
    public convenience init(from massFormatterUnit: MassFormatter.Unit) {
        let unit: HKUnit = switch massFormatterUnit {
        case .gram: .gram()
        case .kilogram: .gramUnit(with: .kilo)
        case .ounce: .ounce()
        case .pound: .pound()
        case .stone: .stone()
        }
        self.init(from: unit.unitString)
    }

    /// `+massFormatterUnitFromUnit:`. Traps for any unit but g, kg, oz, lb and st (above).
    public class func massFormatterUnit(from unit: HKUnit) -> MassFormatter.Unit {
        let units: [(HKUnit, MassFormatter.Unit)] = [
            (.gram(), .gram), (.gramUnit(with: .kilo), .kilogram), (.ounce(), .ounce), (.pound(), .pound), (.stone(), .stone),
        ]
        return formatterUnit(unit, in: units, kind: "MassFormatter.Unit")
    }

    /// `+unitFromLengthFormatterUnit:`: millimeter, centimeter, meter, kilometer, inch, foot,
    /// yard or mile.
    public convenience init(from lengthFormatterUnit: LengthFormatter.Unit) {
        let unit: HKUnit = switch lengthFormatterUnit {
        case .millimeter: .meterUnit(with: .milli)
        case .centimeter: .meterUnit(with: .centi)
        case .meter: .meter()
        case .kilometer: .meterUnit(with: .kilo)
        case .inch: .inch()
        case .foot: .foot()
        case .yard: .yard()
        case .mile: .mile()
        }
        self.init(from: unit.unitString)
    }

    /// `+lengthFormatterUnitFromUnit:`. Traps for any unit but mm, cm, m, km, in, ft, yd, mi.
    public class func lengthFormatterUnit(from unit: HKUnit) -> LengthFormatter.Unit {
        let units: [(HKUnit, LengthFormatter.Unit)] = [
            (.meterUnit(with: .milli), .millimeter), (.meterUnit(with: .centi), .centimeter), (.meter(), .meter),
            (.meterUnit(with: .kilo), .kilometer), (.inch(), .inch), (.foot(), .foot), (.yard(), .yard), (.mile(), .mile),
        ]
        return formatterUnit(unit, in: units, kind: "LengthFormatter.Unit")
    }

    /// `+unitFromEnergyFormatterUnit:`: joule, kilojoule, calorie (HealthKit's small calorie)
    /// or kilocalorie.
    public convenience init(from energyFormatterUnit: EnergyFormatter.Unit) {
        let unit: HKUnit = switch energyFormatterUnit {
        case .joule: .joule()
        case .kilojoule: .jouleUnit(with: .kilo)
        case .calorie: .smallCalorie()
        case .kilocalorie: .kilocalorie()
        }
        self.init(from: unit.unitString)
    }

    /// `+energyFormatterUnitFromUnit:`. Traps for any unit but J, kJ, cal, kcal and Cal.
    public class func energyFormatterUnit(from unit: HKUnit) -> EnergyFormatter.Unit {
        let units: [(HKUnit, EnergyFormatter.Unit)] = [
            (.smallCalorie(), .calorie), (.joule(), .joule), (.kilocalorie(), .kilocalorie),
            (.largeCalorie(), .kilocalorie), (.jouleUnit(with: .kilo), .kilojoule),
        ]
        return formatterUnit(unit, in: units, kind: "EnergyFormatter.Unit")
    }

    /// HealthKit's `isNull()`: true for the unit left when all of a compound unit's units cancel
    /// (`m/m`, `count/count`, `m^0`, printed and parsed as "()"); false for every other unit,
    /// including an invalid one. Units that only cancel by conversion (`dL/L`, `m/in`) are not
    /// null here: Apple's page gives `dL/L` as an example, but Apple's framework answers false
    /// for it (Sources/HealthKit/README.md, "The null unit, as Apple's"; HKUnitNullTests).
    public func isNull() -> Bool {
        if case .valid(let expression) = content { return expression.isNull }
        return false
    }

    private static func formatterUnit<Unit>(_ unit: HKUnit, in units: [(HKUnit, Unit)], kind: String) -> Unit {
        guard let match = units.first(where: { $0.0 == unit }) else {
            preconditionFailure("No mapping for unit \(unit.unitString) to \(kind) (HealthKit raises NSInvalidArgumentException)")
        }
        return match.1
    }
}
