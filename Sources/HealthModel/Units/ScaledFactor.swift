import Foundation

/// A positive conversion factor held as `coefficient × 10^decimalExponent`.
///
/// Metric prefixes and most SI derivations are exact powers of ten; keeping them apart from
/// the coefficient means "mg → kg" is computed as 1 × 10^-6 rather than as 0.001 / 1000, so
/// such conversions carry no binary rounding until the single final multiplication.
struct ScaledFactor: Hashable, Sendable {
    var coefficient: Double
    var decimalExponent: Int

    static let one = ScaledFactor(1, 0)

    init(_ coefficient: Double, _ decimalExponent: Int = 0) {
        self.coefficient = coefficient
        self.decimalExponent = decimalExponent
    }

    static func * (lhs: ScaledFactor, rhs: ScaledFactor) -> ScaledFactor {
        ScaledFactor(lhs.coefficient * rhs.coefficient, lhs.decimalExponent + rhs.decimalExponent)
    }

    /// Integer powers by repeated multiplication: exponents are small (the parser caps them),
    /// and this avoids relying on the platform `pow` for exactness.
    func raised(to power: Int) -> ScaledFactor {
        var coefficient = 1.0
        for _ in 0..<power.magnitude { coefficient *= self.coefficient }
        if power < 0 { coefficient = 1 / coefficient }
        return ScaledFactor(coefficient, decimalExponent * power)
    }

    /// Its order of magnitude (log10), or nil when the coefficient is not a positive finite number.
    var orderOfMagnitude: Double? {
        guard coefficient.isFinite, coefficient > 0 else { return nil }
        return log10(coefficient) + Double(decimalExponent)
    }

    /// The number that converts a value expressed in `self` into one expressed in `other`.
    func ratio(to other: ScaledFactor) -> Double {
        let coefficientRatio = coefficient / other.coefficient
        let exponent = decimalExponent - other.decimalExponent
        // Dividing by an exact power of ten rounds once; multiplying by its inexact reciprocal
        // would round twice.
        return exponent >= 0
            ? coefficientRatio * Self.powerOfTen(exponent)
            : coefficientRatio / Self.powerOfTen(-exponent)
    }

    /// 10^n for n ≥ 0; exact up to 10^22 (the largest power of ten a Double holds exactly).
    private static func powerOfTen(_ n: Int) -> Double {
        var result = 1.0
        var remaining = n
        while remaining > 0 {
            let step = min(remaining, 22)
            result *= exactPowersOfTen[step]
            remaining -= step
        }
        return result
    }

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
