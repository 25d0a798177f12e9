import Foundation
import Testing
@testable import HealthModel

/// HealthKit's null unit. developer.apple.com/documentation/healthkit/hkunit/isnull(): "Null
/// units occur only when you create compound units in which all the units cancel out." Until
/// session 14 every unit here answered false (`m/m` reduced to `count()`).
///
/// The page's example, `dL/L`, is not null here: its units convert into each other but are
/// different units, and Apple's framework itself answers false for it (the null-unit tests of
/// StanfordSpezi/SpeziHealthKit, which run against Apple's `HKUnit`, expect `!dL/L.isNull()`,
/// `(m/m).unitString == "()"` and `HKUnit.parse("()").isNull()`).
@Suite(.timeLimit(.minutes(10))) struct HKUnitNullTests {
    /// Every way of cancelling all the units: division by itself, inverse products, power 0,
    /// and parsing the null unit's own spelling.
    static let cancelled: [(String, HKUnit)] = [
        ("m/m", HKUnit.meter().unitDivided(by: .meter())),
        ("count/count", HKUnit.count().unitDivided(by: .count())),
        ("in/in", HKUnit.inch().unitDivided(by: .inch())),
        ("kg·m/m·kg", HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .meter())
            .unitDivided(by: HKUnit.meter().unitMultiplied(by: .gramUnit(with: .kilo)))),
        ("m^0", HKUnit.meter().unitRaised(toPower: 0)),
        ("(m/s)^0", HKUnit(from: "m/s").unitRaised(toPower: 0)),
        ("s·s^-1", HKUnit.second().unitMultiplied(by: HKUnit.second().reciprocal())),
        ("parsed \"()\"", HKUnit(from: "()")),
        ("parsed \"m/m\"", HKUnit(from: "m/m")),
        ("parsed \"(count/min)^0\"", HKUnit(from: "(count/min)^0")),
    ]

    @Test(arguments: cancelled)
    func aUnitWhoseUnitsAllCancelIsNull(_ written: String, _ unit: HKUnit) throws {
        #expect(unit.isValid, "\(written)")
        #expect(unit.isNull(), "\(written)")
        #expect(unit.unitString == "()", "\(written) prints as Apple's null unit")
        #expect(try HKUnit.parse(unit.unitString) == unit, "\(written): the spelling parses back to the same unit")
        #expect(unit.unitRaised(toPower: 3).isNull() && unit.reciprocal().isNull(), "\(written): powers of null are null")
    }

    /// Units whose units do not all cancel, including ones that cancel only by conversion.
    static let notNull: [(String, HKUnit)] = [
        ("count", .count()), ("%", .percent()), ("m", .meter()), ("count/min", HKUnit(from: "count/min")),
        ("dL/L (Apple's framework: false)", HKUnit.literUnit(with: .deci).unitDivided(by: .liter())),
        ("m/in", HKUnit.meter().unitDivided(by: .inch())), ("kg/g", HKUnit(from: "kg/g")),
        ("count/%", HKUnit.count().unitDivided(by: .percent())), ("%/count", HKUnit.percent().unitDivided(by: .count())),
        ("L/()", HKUnit.liter().unitDivided(by: HKUnit(from: "()"))),
        ("invalid", HKUnit(from: "not a unit")), ("empty", HKUnit(from: "")),
    ]

    @Test(arguments: notNull)
    func aUnitWithUnitsLeftIsNotNull(_ written: String, _ unit: HKUnit) {
        #expect(!unit.isNull(), "\(written)")
    }

    /// A null unit divides out of a product: L/() is L.
    @Test func dividingByTheNullUnitLeavesTheUnit() {
        #expect(HKUnit.liter().unitDivided(by: HKUnit(from: "()")) == .liter())
        #expect(HKUnit(from: "()").unitMultiplied(by: .meter()) == .meter())
    }

    /// The null unit is dimensionless with factor 1: compatible with count (so a quantity in it
    /// converts to a count unchanged) and with itself, not with a unit of a dimension.
    @Test func theNullUnitIsADimensionlessOne() throws {
        let null = HKUnit.meter().unitDivided(by: .meter())
        #expect(null.isCompatible(with: .count()) && null.isCompatible(with: null))
        #expect(!null.isCompatible(with: .meter()) && !null.isCompatible(with: .second()))
        #expect(HKQuantity(unit: null, doubleValue: 3).doubleValue(for: .count()) == 3)
        #expect(HKQuantity(unit: .count(), doubleValue: 3).doubleValue(for: null) == 3)
        #expect(null != .count(), "null is its own unit, as Apple's")
    }

    /// Archived and decoded (NSSecureCoding keeps the unit string), the null unit stays null.
    @Test func theNullUnitSurvivesArchiving() throws {
        let null = HKUnit.count().unitDivided(by: .count())
        let data = try NSKeyedArchiver.archivedData(withRootObject: null, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: data))
        #expect(decoded.isNull() && decoded == null)
    }
}
