/// The independent quantities that unit dimensions are made of.
///
/// Mass, length, time, temperature, current and luminous intensity are SI's, so J, W, Pa, V
/// and S decompose physically and e.g. `kcal/hr` is compatible with `W`, `L` with `m^3`, and
/// `Hz` with `count/s`. The remaining axes are units HealthKit converts to nothing else
/// (international units, hearing level, diopters, Apple's effort score); angle is kept apart
/// from plain counts so that `rad/s` is never mistaken for a rate of counts, and so is percent:
/// "Even though count and percent units are both scalar units, you cannot convert between
/// them" (developer.apple.com/documentation/healthkit/hkunit/percent()).
enum BaseDimension: Int, CaseIterable, Sendable {
    case mass, length, time, temperature, electricCurrent, luminousIntensity, angle
    case internationalUnit, hearingLevel, opticalPower, prismaticPower, effortScore, percent

    var name: String {
        switch self {
        case .mass: "mass"
        case .length: "length"
        case .time: "time"
        case .temperature: "temperature"
        case .electricCurrent: "electric current"
        case .luminousIntensity: "luminous intensity"
        case .angle: "angle"
        case .internationalUnit: "international unit"
        case .hearingLevel: "hearing level"
        case .opticalPower: "optical power"
        case .prismaticPower: "prismatic power"
        case .effortScore: "effort score"
        case .percent: "percent"
        }
    }
}

/// A unit's dimension: an integer exponent per base dimension. Two units are compatible
/// exactly when their dimensions are equal.
struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    private var exponents: [Int]

    static let dimensionless = UnitDimension([:])

    init(_ exponents: [BaseDimension: Int]) {
        self.exponents = BaseDimension.allCases.map { exponents[$0] ?? 0 }
    }

    static func * (lhs: UnitDimension, rhs: UnitDimension) -> UnitDimension {
        var product = lhs
        for index in product.exponents.indices { product.exponents[index] += rhs.exponents[index] }
        return product
    }

    func raised(to power: Int) -> UnitDimension {
        var result = self
        for index in result.exponents.indices { result.exponents[index] *= power }
        return result
    }

    /// Readable form for error messages, e.g. "mass·length^-3".
    var description: String {
        let parts = BaseDimension.allCases.compactMap { dimension -> String? in
            let exponent = exponents[dimension.rawValue]
            switch exponent {
            case 0: return nil
            case 1: return dimension.name
            default: return "\(dimension.name)^\(exponent)"
            }
        }
        return parts.isEmpty ? "dimensionless" : parts.joined(separator: "·")
    }
}
