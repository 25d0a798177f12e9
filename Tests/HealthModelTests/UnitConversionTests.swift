import Foundation
import Testing
import TestSupport
@testable import HealthModel

/// Conversions between compatible units, with expected values computed here from the unit
/// definitions, plus a seeded round-trip property over many unit pairs.
@Suite(.timeLimit(.minutes(10))) struct UnitConversionTests {
    func convert(_ value: Double, _ from: String, _ to: String) throws -> Double {
        try HKQuantity(unit: HKUnit.parse(from), doubleValue: value).value(in: HKUnit.parse(to))
    }

    func expectClose(_ actual: Double, _ expected: Double, relative: Double = 1e-12,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let tolerance = relative * max(abs(expected), 1)
        #expect(abs(actual - expected) <= tolerance, "\(actual) ≠ \(expected)", sourceLocation: sourceLocation)
    }

    @Test func compoundUnits() throws {
        expectClose(try convert(60, "count/min", "Hz"), 1)
        expectClose(try convert(1, "kcal/hr", "W"), 4184.0 / 3600)
        expectClose(try convert(1, "L", "m^3"), 0.001)
        expectClose(try convert(1, "mi/hr", "m/s"), 1609.344 / 3600)
        expectClose(try convert(1, "kcal/(kg*hr)", "J/(g*s)"), 4184.0 / 1000 / 3600)
        expectClose(try convert(1, "ml/(kg*min)", "L/(kg*hr)"), 0.06)
        expectClose(try convert(1, "count/s", "count/min"), 60)
        expectClose(try convert(1, "mcS", "S"), 1e-6)
    }

    @Test func bloodGlucoseMolarConcentration() throws {
        // 1 mmol/L of glucose is 180.15588… mg per liter, i.e. 18.015588… mg/dL.
        expectClose(try convert(1, "mmol<180.1558800000541>/L", "mg/dL"), 18.015588000005408)
        expectClose(try convert(100, "mg/dL", "mmol<180.1558800000541>/L"), 100 / 18.015588000005408)
        expectClose(try convert(1, "mol<180.1558800000541>", "g"), 180.15588000005408)
    }

    @Test func affineTemperatures() throws {
        expectClose(try convert(0, "degC", "K"), 273.15)
        expectClose(try convert(100, "degC", "degF"), 212)
        expectClose(try convert(-40, "degF", "degC"), -40)
        expectClose(try convert(98.6, "degF", "degC"), 37)
        expectClose(try convert(0, "K", "degF"), -459.67)
        expectClose(try convert(36.6, "degC", "degC"), 36.6)
    }

    @Test func decibelSoundPressureLevel() throws {
        let referencePressure = 2e-5  // 20 µPa
        for level in [0.0, 20, 60, 85, 94, 120] {
            expectClose(try convert(level, "dBASPL", "Pa"), referencePressure * pow(10, level / 20))
        }
        expectClose(try convert(2e-5 * pow(10, 70.0 / 20) / 1000, "kPa", "dBASPL"), 70)
    }

    @Test func incompatibleAndInvalidConversionsFailClearly() throws {
        let mass = HKQuantity(unit: .gram(), doubleValue: 70)
        #expect(mass.doubleValue(for: .meter()).isNaN)
        #expect {
            try mass.value(in: .meter())
        } throws: { error in
            let message = (error as? HKError)?.message ?? ""
            return message.contains("'g'") && message.contains("'m'") && message.contains("mass")
                && !message.contains("70")
        }
        #expect(mass.doubleValue(for: HKUnit(from: "bogus")).isNaN)
        #expect(HKQuantity(unit: HKUnit(from: "bogus"), doubleValue: 1).doubleValue(for: .gram()).isNaN)
        #expect(throws: HKError.self) { try HKQuantity(unit: .count(), doubleValue: 1).value(in: .radianAngle()) }
        #expect(throws: HKError.self) { try HKQuantity(unit: .internationalUnit(), doubleValue: 1).value(in: .count()) }
    }

    /// Unit pairs of one dimension each; the property test converts across random pairs.
    static let families: [[String]] = [
        ["g", "kg", "mg", "mcg", "ng", "oz", "lb", "st", "mol<180.1558800000541>", "mmol<18.01528>"],
        ["m", "km", "cm", "mm", "dam", "in", "ft", "yd", "mi"],
        ["L", "mL", "dL", "cL", "fl_oz_us", "fl_oz_imp", "pt_us", "pt_imp", "cup_us", "cup_imp", "m^3", "cm^3"],
        ["Pa", "kPa", "hPa", "mmHg", "cmAq", "atm", "inHg"],
        ["s", "ms", "mcs", "min", "hr", "d"],
        ["J", "kJ", "cal", "kcal", "Cal"],
        ["W", "kW", "kcal/hr", "J/s"],
        ["K", "degC", "degF"],
        ["Hz", "count/min", "count/s", "kHz"],
        ["mg/dL", "mmol<180.1558800000541>/L", "g/L", "mcg/mL"],
        ["m/s", "km/hr", "mi/hr", "ft/s"],
        ["kcal/(kg*hr)", "J/(g*s)", "W/kg"],
        ["rad", "deg", "mrad"],
        ["S", "mcS", "mS"],
        ["mL/(kg*min)", "L/(kg*hr)"],
    ]

    /// A conversion and back returns the value within 1e-12, relative to the value — or,
    /// for offset and logarithmic units, to the scale of their offset (a temperature near
    /// 0 °C is computed through ~273 K, so its error is relative to that magnitude).
    @Test func roundTripsAcrossRandomUnitPairs() throws {
        var random = SplitMix64(seed: 0x4845_414C_5448)
        for _ in 0..<20_000 {
            let family = Self.families[Int(random.next() % UInt64(Self.families.count))]
            let from = try HKUnit.parse(family[Int(random.next() % UInt64(family.count))])
            let to = try HKUnit.parse(family[Int(random.next() % UInt64(family.count))])
            // Magnitudes from 1e-6 to 1e6, either sign (dBASPL levels only sensibly positive).
            let magnitude = pow(10, random.nextUnit() * 12 - 6)
            let value = random.next() % 2 == 0 ? magnitude : -magnitude
            let there = try HKQuantity(unit: from, doubleValue: value).value(in: to)
            let back = try HKQuantity(unit: to, doubleValue: there).value(in: from)
            let scale = family.contains("degC") ? max(abs(value), 500) : max(abs(value), 1e-300)
            #expect(abs(back - value) <= 1e-12 * scale, "\(value) \(from) → \(to) → \(back)")
        }
    }

    /// Decibel levels are logarithmic: levels from -20 to 200 dB (far beyond hearing) go to a
    /// random pressure unit and back, within 1e-12 of the level or of 1 dB near 0 dB, where
    /// the logarithm's own rounding is absolute.
    @Test func decibelLevelsRoundTripThroughPressureUnits() throws {
        var random = SplitMix64(seed: 0x6442_4153_504C)
        let pressures = try ["Pa", "kPa", "mmHg", "cmAq", "atm", "inHg", "mcPa"].map(HKUnit.parse)
        let decibels = HKUnit.decibelAWeightedSoundPressureLevel()
        for _ in 0..<5_000 {
            let level = random.nextUnit() * 220 - 20
            let pressure = pressures[Int(random.next() % UInt64(pressures.count))]
            let there = try HKQuantity(unit: decibels, doubleValue: level).value(in: pressure)
            let back = try HKQuantity(unit: pressure, doubleValue: there).value(in: decibels)
            #expect(abs(back - level) <= 1e-12 * max(abs(level), 1), "\(level) dBASPL → \(pressure) → \(back)")
        }
    }

    @Test func nonPositivePressureHasNoDecibelLevel() {
        #expect(throws: HKError.self) { try HKQuantity(unit: .pascal(), doubleValue: 0).value(in: .decibelAWeightedSoundPressureLevel()) }
        #expect(HKQuantity(unit: .pascal(), doubleValue: -1).doubleValue(for: .decibelAWeightedSoundPressureLevel()).isNaN)
    }
}
