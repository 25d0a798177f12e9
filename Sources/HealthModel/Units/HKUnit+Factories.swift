/// HealthKit's molar mass of glucose in g/mol (`HKUnitMolarMassBloodGlucose`), for blood
/// glucose in mmol/L: `HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose)`.
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408

/// HealthKit's named unit constructors, one per row of units.tsv, with HealthKit's Swift names.
extension HKUnit {
    /// A unit of the table, optionally prefixed. Every call site passes a symbol of
    /// `BaseUnit.all` (checked by the unit tests), so this cannot fail at run time.
    private static func named(_ symbol: String, _ prefix: HKMetricPrefix = .none, molarMass: Double? = nil) -> HKUnit {
        guard let base = BaseUnit.named(symbol) else {
            preconditionFailure("HKUnit factory names '\(symbol)', which is not in BaseUnit.all")
        }
        do {
            return HKUnit(try UnitExpression([.init(atom: UnitAtom(base, prefix: prefix, molarMass: molarMass),
                                                    exponent: 1)]))
        } catch {
            preconditionFailure("single factor '\(symbol)' failed to normalize: \(error.message)")
        }
    }

    // Mass
    public static func gram() -> HKUnit { named("g") }
    public static func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { named("g", prefix) }
    public static func ounce() -> HKUnit { named("oz") }
    public static func pound() -> HKUnit { named("lb") }
    public static func stone() -> HKUnit { named("st") }

    /// A mole unit that converts to grams through `molarMass` (g/mol). A molar mass that is
    /// not a positive finite number gives an invalid unit.
    public static func moleUnit(with prefix: HKMetricPrefix, molarMass: Double) -> HKUnit {
        guard molarMass.isFinite, molarMass > 0 else {
            let spelling = "\(prefix.symbol)mol<\(molarMass)>"
            return HKUnit(invalidText: spelling, error: HKError(
                .errorInvalidArgument, "invalid unit '\(spelling)': molar mass must be a positive number of g/mol"))
        }
        return named("mol", prefix, molarMass: molarMass)
    }

    public static func moleUnit(withMolarMass molarMass: Double) -> HKUnit {
        moleUnit(with: .none, molarMass: molarMass)
    }

    // Length
    public static func meter() -> HKUnit { named("m") }
    public static func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { named("m", prefix) }
    public static func inch() -> HKUnit { named("in") }
    public static func foot() -> HKUnit { named("ft") }
    public static func yard() -> HKUnit { named("yd") }
    public static func mile() -> HKUnit { named("mi") }

    // Volume
    public static func liter() -> HKUnit { named("L") }
    public static func literUnit(with prefix: HKMetricPrefix) -> HKUnit { named("L", prefix) }
    public static func fluidOunceUS() -> HKUnit { named("fl_oz_us") }
    public static func fluidOunceImperial() -> HKUnit { named("fl_oz_imp") }
    public static func pintUS() -> HKUnit { named("pt_us") }
    public static func pintImperial() -> HKUnit { named("pt_imp") }
    public static func cupUS() -> HKUnit { named("cup_us") }
    public static func cupImperial() -> HKUnit { named("cup_imp") }

    // Pressure
    public static func pascal() -> HKUnit { named("Pa") }
    public static func pascalUnit(with prefix: HKMetricPrefix) -> HKUnit { named("Pa", prefix) }
    public static func millimeterOfMercury() -> HKUnit { named("mmHg") }
    public static func centimeterOfWater() -> HKUnit { named("cmAq") }
    public static func atmosphere() -> HKUnit { named("atm") }
    public static func inchesOfMercury() -> HKUnit { named("inHg") }
    public static func decibelAWeightedSoundPressureLevel() -> HKUnit { named("dBASPL") }

    // Time
    public static func second() -> HKUnit { named("s") }
    public static func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { named("s", prefix) }
    public static func minute() -> HKUnit { named("min") }
    public static func hour() -> HKUnit { named("hr") }
    public static func day() -> HKUnit { named("d") }

    // Energy and power
    public static func joule() -> HKUnit { named("J") }
    public static func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { named("J", prefix) }
    public static func smallCalorie() -> HKUnit { named("cal") }
    /// HealthKit's deprecated name for `smallCalorie()`.
    public static func calorie() -> HKUnit { smallCalorie() }
    public static func kilocalorie() -> HKUnit { named("kcal") }
    public static func largeCalorie() -> HKUnit { named("Cal") }
    public static func watt() -> HKUnit { named("W") }
    public static func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { named("W", prefix) }

    // Temperature
    public static func kelvin() -> HKUnit { named("K") }
    public static func degreeCelsius() -> HKUnit { named("degC") }
    public static func degreeFahrenheit() -> HKUnit { named("degF") }

    // Electrical, frequency, angle, light
    public static func siemen() -> HKUnit { named("S") }
    public static func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { named("S", prefix) }
    public static func volt() -> HKUnit { named("V") }
    public static func voltUnit(with prefix: HKMetricPrefix) -> HKUnit { named("V", prefix) }
    public static func hertz() -> HKUnit { named("Hz") }
    public static func hertzUnit(with prefix: HKMetricPrefix) -> HKUnit { named("Hz", prefix) }
    public static func radianAngle() -> HKUnit { named("rad") }
    public static func radianAngleUnit(with prefix: HKMetricPrefix) -> HKUnit { named("rad", prefix) }
    public static func degreeAngle() -> HKUnit { named("deg") }
    public static func lux() -> HKUnit { named("lx") }
    public static func luxUnit(with prefix: HKMetricPrefix) -> HKUnit { named("lx", prefix) }

    // Scalars and units that convert to nothing else
    public static func count() -> HKUnit { named("count") }
    public static func percent() -> HKUnit { named("%") }
    public static func internationalUnit() -> HKUnit { named("IU") }
    public static func decibelHearingLevel() -> HKUnit { named("dBHL") }
    public static func diopter() -> HKUnit { named("D") }
    public static func prismDiopter() -> HKUnit { named("pD") }
    public static func appleEffortScore() -> HKUnit { named("appleEffortScore") }
}
