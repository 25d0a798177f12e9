import Foundation
import Testing
@testable import HealthModel

/// Every unit of units.tsv parses, prints back as the table spells it, has a factory, and
/// converts by the factor this test states independently of the code under test.
@Suite(.timeLimit(.minutes(10))) struct UnitTableTests {
    /// Value of one unit in its family's reference unit (g, m, L, Pa, s, J, K, …), from the
    /// unit definitions (exact where a definition exists), written out here rather than taken
    /// from the implementation.
    static let referenceFactors: [String: (reference: String, factor: Double)] = [
        "g": ("g", 1), "oz": ("g", 28.349523125), "lb": ("g", 453.59237), "st": ("g", 6350.29318),
        "mol<180.1558800000541>": ("g", 180.1558800000541),
        "m": ("m", 1), "in": ("m", 0.0254), "ft": ("m", 0.3048), "yd": ("m", 0.9144), "mi": ("m", 1609.344),
        "L": ("L", 1), "fl_oz_us": ("L", 0.0295735295625), "fl_oz_imp": ("L", 0.0284130625),
        "pt_us": ("L", 0.473176473), "pt_imp": ("L", 0.56826125),
        "cup_us": ("L", 0.2365882365), "cup_imp": ("L", 0.284130625),
        "Pa": ("Pa", 1), "mmHg": ("Pa", 133.322387415), "cmAq": ("Pa", 98.0665), "atm": ("Pa", 101325),
        "inHg": ("Pa", 25.4 * 133.322387415),
        "s": ("s", 1), "min": ("s", 60), "hr": ("s", 3600), "d": ("s", 86400),
        "J": ("J", 1), "cal": ("J", 4.184), "kcal": ("J", 4184), "Cal": ("J", 4184),
        "K": ("K", 1), "S": ("S", 1), "Hz": ("Hz", 1), "V": ("V", 1), "W": ("W", 1),
        "rad": ("rad", 1), "deg": ("rad", Double.pi / 180), "lx": ("lx", 1),
        // Percent converts to nothing but itself, count included (PercentUnitTests).
        "count": ("count", 1), "%": ("%", 1),
        "IU": ("IU", 1), "dBHL": ("dBHL", 1), "D": ("D", 1), "pD": ("pD", 1),
        "appleEffortScore": ("appleEffortScore", 1),
    ]

    /// Units whose conversion is not a factor; checked point by point in UnitConversionTests.
    static let nonlinearUnits: Set<String> = ["degC", "degF", "dBASPL"]

    static let factories: [String: @Sendable () -> HKUnit] = [
        "g": { .gram() }, "m": { .meter() }, "L": { .liter() }, "Pa": { .pascal() }, "s": { .second() },
        "J": { .joule() }, "K": { .kelvin() }, "S": { .siemen() }, "Hz": { .hertz() },
        "mol<180.1558800000541>": { .moleUnit(withMolarMass: HKUnitMolarMassBloodGlucose) },
        "V": { .volt() }, "W": { .watt() }, "rad": { .radianAngle() }, "deg": { .degreeAngle() },
        "lx": { .lux() }, "oz": { .ounce() }, "lb": { .pound() }, "st": { .stone() }, "in": { .inch() },
        "ft": { .foot() }, "yd": { .yard() }, "mi": { .mile() }, "mmHg": { .millimeterOfMercury() },
        "cmAq": { .centimeterOfWater() }, "atm": { .atmosphere() }, "inHg": { .inchesOfMercury() },
        "dBASPL": { .decibelAWeightedSoundPressureLevel() }, "fl_oz_us": { .fluidOunceUS() },
        "fl_oz_imp": { .fluidOunceImperial() }, "pt_us": { .pintUS() }, "pt_imp": { .pintImperial() },
        "cup_us": { .cupUS() }, "cup_imp": { .cupImperial() }, "min": { .minute() }, "hr": { .hour() },
        "d": { .day() }, "cal": { .smallCalorie() }, "kcal": { .kilocalorie() }, "Cal": { .largeCalorie() },
        "degC": { .degreeCelsius() }, "degF": { .degreeFahrenheit() }, "IU": { .internationalUnit() },
        "count": { .count() }, "%": { .percent() }, "dBHL": { .decibelHearingLevel() }, "D": { .diopter() },
        "pD": { .prismDiopter() }, "appleEffortScore": { .appleEffortScore() },
    ]

    /// The table writes the mole row generically as "mol<M>"; test it with glucose's molar mass
    /// as Apple prints it (the row's note: "Health export prints mmol<180.1558800000541>/L").
    static func unitString(of row: [String: String]) -> String {
        let spelled = row["unit_string"]!
        return spelled == "mol<M>" ? "mol<180.1558800000541>" : spelled
    }

    @Test func everyTableUnitParsesAndPrintsAsSpelled() throws {
        let rows = try SpecTable.load("units.tsv")
        #expect(rows.count == 48)
        for row in rows {
            let spelled = Self.unitString(of: row)
            let unit = try HKUnit.parse(spelled)
            #expect(unit.unitString == spelled)
            #expect(HKUnit(from: spelled) == unit)
            #expect(unit.isValid)
        }
    }

    @Test func everyTableUnitHasItsFactory() throws {
        for row in try SpecTable.load("units.tsv") {
            let spelled = Self.unitString(of: row)
            let factory = try #require(Self.factories[spelled], "no factory checked for \(spelled)")
            #expect(factory() == HKUnit(from: spelled), "\(row["factory_method"]!)")
        }
    }

    @Test func everyLinearTableUnitConvertsByItsDefinedFactor() throws {
        for row in try SpecTable.load("units.tsv") {
            let spelled = Self.unitString(of: row)
            if Self.nonlinearUnits.contains(spelled) { continue }
            let expected = try #require(Self.referenceFactors[spelled], "no factor stated for \(spelled)")
            let one = HKQuantity(unit: HKUnit(from: spelled), doubleValue: 1)
            let converted = try one.value(in: HKUnit.parse(expected.reference))
            #expect(abs(converted - expected.factor) <= 1e-12 * expected.factor, "\(spelled)")
        }
    }

    @Test func everyPrefixMatchesItsTableRow() throws {
        let rows = try SpecTable.load("unit_prefixes.tsv")
        #expect(rows.count == HKMetricPrefix.allCases.count - 1)  // the table omits `none`
        for row in rows {
            let raw = Int(row["HKMetricPrefix_raw"]!.split(separator: "=")[1].split(separator: " ")[0])!
            let prefix = try #require(HKMetricPrefix(rawValue: raw))
            #expect("\(prefix)" == row["name"]!)
            #expect(prefix.symbol == row["prefix_string"]!)
            let multiplier = Double(row["multiplier"]!)!
            let prefixedGram = try HKUnit.parse("\(row["prefix_string"]!)g")
            #expect(prefixedGram == HKUnit.gramUnit(with: prefix))
            #expect(prefixedGram.unitString == "\(row["prefix_string"]!)g")
            let grams = try HKQuantity(unit: prefixedGram, doubleValue: 1).value(in: .gram())
            #expect(abs(grams - multiplier) <= 1e-15 * multiplier, "\(row["name"]!)")
        }
    }

    @Test func prefixedFactoriesMatchParsedSpellings() {
        #expect(HKUnit.meterUnit(with: .kilo).unitString == "km")
        #expect(HKUnit.literUnit(with: .milli).unitString == "mL")
        #expect(HKUnit.literUnit(with: .deci).unitString == "dL")
        #expect(HKUnit.secondUnit(with: .milli).unitString == "ms")
        #expect(HKUnit.jouleUnit(with: .kilo).unitString == "kJ")
        #expect(HKUnit.siemenUnit(with: .micro).unitString == "mcS")
        #expect(HKUnit.pascalUnit(with: .kilo).unitString == "kPa")
        #expect(HKUnit.hertzUnit(with: .mega).unitString == "MHz")
        #expect(HKUnit.voltUnit(with: .milli).unitString == "mV")
        #expect(HKUnit.wattUnit(with: .kilo).unitString == "kW")
        #expect(HKUnit.radianAngleUnit(with: .milli).unitString == "mrad")
        #expect(HKUnit.luxUnit(with: .kilo).unitString == "klx")
        #expect(HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitString
                == "mmol<180.1558800000541>")
        #expect(HKUnit.calorie() == HKUnit.smallCalorie())
    }
}

/// Apple's Health export writes blood glucose as `mmol<180.1558800000541>/L` while the SDK's
/// constant `HKUnitMolarMassBloodGlucose` is 180.15588000005408 (HKUnit.h; spec/healthkit/units.tsv,
/// mol<M> row): HealthKit keeps molar masses to 16 significant digits, so the unit built from the
/// constant prints Apple's string and the unit parsed from Apple's string is equal to it.
@Suite(.timeLimit(.minutes(10))) struct MolarMassPrintingTests {
    @Test func glucoseUnitPrintsAndParsesAsApplesExport() throws {
        let built = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
        #expect(built.unitString == "mmol<180.1558800000541>/L")
        let parsed = try HKUnit.parse("mmol<180.1558800000541>/L")
        #expect(parsed == built)
        #expect(try HKUnit.parse("mmol<180.1558800000541>/L") == built)
    }
}
