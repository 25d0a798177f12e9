/// The units of HealthKit's grammar (units.tsv). The order is the order factors print in a
/// compound unit: counts, then time, mass, length, volume and the rest, which gives
/// HealthKit's own spellings "count/min", "mL/min·kg" and "kcal/hr·kg".
///
/// Factors are the exact definitions, not the rounded figures in HKUnit.h's comments:
/// lb 453.59237 g, oz 28.349523125 g, st 14 lb = 6350.29318 g, mi 1609.344 m,
/// mmHg 133.322387415 Pa (conventional), inHg = 25.4 mmHg, cmAq 98.0665 Pa.
extension BaseUnit {
    static let all: [BaseUnit] = {
        let mass = UnitDimension([.mass: 1])
        let length = UnitDimension([.length: 1])
        let time = UnitDimension([.time: 1])
        let volume = UnitDimension([.length: 3])
        let pressure = UnitDimension([.mass: 1, .length: -1, .time: -2])
        let energy = UnitDimension([.mass: 1, .length: 2, .time: -2])
        let temperature = UnitDimension([.temperature: 1])
        let angle = UnitDimension([.angle: 1])

        // Reference units: gram (not kilogram), so SI derived units carry 10^3 per kg.
        let definitions: [(String, [String], UnitDimension, UnitScale, Bool)] = [
            ("count", [], .dimensionless, .linear(.one), false),
            // Its own dimension: HealthKit converts percent to nothing, count included (a
            // value 0.0–1.0 of a whole; the factor only scales `valueInReferenceUnit`).
            ("%", [], UnitDimension([.percent: 1]), .linear(ScaledFactor(1, -2)), false),

            ("s", [], time, .linear(.one), true),
            ("min", [], time, .linear(ScaledFactor(60)), false),
            ("hr", [], time, .linear(ScaledFactor(3600)), false),
            ("d", [], time, .linear(ScaledFactor(86400)), false),

            ("g", [], mass, .linear(.one), true),
            ("mol", [], mass, .linear(.one), true),  // × molar mass, see UnitAtom
            ("oz", [], mass, .linear(ScaledFactor(28.349523125)), false),
            ("lb", [], mass, .linear(ScaledFactor(453.59237)), false),
            ("st", [], mass, .linear(ScaledFactor(6350.29318)), false),

            ("m", [], length, .linear(.one), true),
            ("in", [], length, .linear(ScaledFactor(254, -4)), false),
            ("ft", [], length, .linear(ScaledFactor(3048, -4)), false),
            ("yd", [], length, .linear(ScaledFactor(9144, -4)), false),
            ("mi", [], length, .linear(ScaledFactor(1609.344)), false),

            ("L", ["l"], volume, .linear(ScaledFactor(1, -3)), true),
            ("fl_oz_us", [], volume, .linear(ScaledFactor(29.5735295625, -6)), false),
            ("fl_oz_imp", [], volume, .linear(ScaledFactor(28.4130625, -6)), false),
            ("pt_us", [], volume, .linear(ScaledFactor(473.176473, -6)), false),
            ("pt_imp", [], volume, .linear(ScaledFactor(568.26125, -6)), false),
            ("cup_us", [], volume, .linear(ScaledFactor(236.5882365, -6)), false),
            ("cup_imp", [], volume, .linear(ScaledFactor(284.130625, -6)), false),

            ("Pa", [], pressure, .linear(ScaledFactor(1, 3)), true),
            ("mmHg", [], pressure, .linear(ScaledFactor(133.322387415, 3)), false),
            ("cmAq", [], pressure, .linear(ScaledFactor(98.0665, 3)), false),
            ("atm", [], pressure, .linear(ScaledFactor(101325, 3)), false),
            ("inHg", [], pressure, .linear(ScaledFactor(3386.388640341, 3)), false),
            ("dBASPL", [], pressure, .decibel(referenceLevel: ScaledFactor(2, -2)), false),

            ("J", [], energy, .linear(ScaledFactor(1, 3)), true),
            ("cal", [], energy, .linear(ScaledFactor(4.184, 3)), false),
            ("kcal", [], energy, .linear(ScaledFactor(4.184, 6)), false),
            ("Cal", [], energy, .linear(ScaledFactor(4.184, 6)), false),
            ("W", [], UnitDimension([.mass: 1, .length: 2, .time: -3]), .linear(ScaledFactor(1, 3)), true),

            ("K", [], temperature, .linear(.one), false),
            ("degC", [], temperature, .affine(offset: 273.15, factor: 1), false),
            ("degF", [], temperature, .affine(offset: 459.67, factor: 5.0 / 9.0), false),

            ("S", [], UnitDimension([.electricCurrent: 2, .time: 3, .mass: -1, .length: -2]),
             .linear(ScaledFactor(1, -3)), true),
            ("V", [], UnitDimension([.mass: 1, .length: 2, .time: -3, .electricCurrent: -1]),
             .linear(ScaledFactor(1, 3)), true),
            ("Hz", [], UnitDimension([.time: -1]), .linear(.one), true),
            ("rad", [], angle, .linear(.one), true),
            ("deg", [], angle, .linear(ScaledFactor(Double.pi / 180)), false),
            ("lx", [], UnitDimension([.luminousIntensity: 1, .length: -2]), .linear(.one), true),

            ("IU", [], UnitDimension([.internationalUnit: 1]), .linear(.one), false),
            ("dBHL", [], UnitDimension([.hearingLevel: 1]), .linear(.one), false),
            ("D", [], UnitDimension([.opticalPower: 1]), .linear(.one), false),
            ("pD", [], UnitDimension([.prismaticPower: 1]), .linear(.one), false),
            ("appleEffortScore", [], UnitDimension([.effortScore: 1]), .linear(.one), false),
        ]
        return definitions.enumerated().map { index, definition in
            let (symbol, spellings, dimension, scale, acceptsPrefix) = definition
            return BaseUnit(symbol: symbol, alternativeSpellings: spellings, dimension: dimension,
                            scale: scale, acceptsPrefix: acceptsPrefix,
                            requiresMolarMass: symbol == "mol", printOrder: index)
        }
    }()
}
