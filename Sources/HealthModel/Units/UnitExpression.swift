/// A valid unit in normal form: each distinct atom once, with a nonzero integer exponent,
/// in canonical print order. `HKUnit` wraps one of these; equal expressions are equal units.
struct UnitExpression: Hashable, Sendable {
    struct Factor: Hashable, Sendable {
        let atom: UnitAtom
        let exponent: Int
    }

    /// Exponents beyond this are rejected: no health unit needs them, and the cap keeps
    /// conversion factors finite and exponent arithmetic far from overflow.
    static let maximumExponentMagnitude = 24

    /// A unit's factor to its dimension's base unit lies within 10^±this. Every health unit is
    /// far inside (fL is 10^-18 m³, Tm 10^12 m), and the bound keeps every stored value finite
    /// in every unit: a value up to `maximumReferenceMagnitude` of the base unit reads as at
    /// most 10^300 in any unit, however small.
    static let maximumScaleExponent = 60

    /// The largest amount, in its dimension's base unit, that is finite in every valid unit
    /// (10^(300 − maximumScaleExponent)). Metadata quantities are held to it
    /// (`MetadataValidator`); a sample's range is far inside it (`QuantityValueRanges`).
    static let maximumReferenceMagnitude = 1e240

    let factors: [Factor]

    /// Normalizes a product of factors as written (`kg*m/s^2` → kg·m·s^-2).
    ///
    /// Affine temperatures and decibels have no zero-preserving factor, so a product
    /// containing one is meaningless (what would "degC/min" do to the 273.15 offset?). They
    /// are accepted only alone and to the power 1; write K or Pa in compound units.
    init(_ written: [Factor]) throws(HKError) {
        if let nonlinear = written.first(where: { !$0.atom.base.scale.isLinear }),
           written.count > 1 || nonlinear.exponent != 1 {
            throw HKError(.errorInvalidArgument,
                          "'\(nonlinear.atom.unitString)' has an offset or logarithmic scale and can only be used "
                          + "on its own, not in a compound unit or with an exponent; use K or Pa instead")
        }
        // The parser holds each written exponent to ±999 and a unit string to 256 characters,
        // so this sum cannot overflow from a string; it is checked anyway because factors also
        // come from `multiplied(by:)` and `raised(to:)`, and an overflow here would trap healthd.
        var exponents: [UnitAtom: Int] = [:]
        for factor in written {
            let (sum, overflow) = exponents[factor.atom, default: 0].addingReportingOverflow(factor.exponent)
            guard !overflow else {
                throw HKError(.errorInvalidArgument,
                              "exponent of '\(factor.atom.unitString)' is too large (outside ±\(Self.maximumExponentMagnitude))")
            }
            exponents[factor.atom] = sum
        }
        var factors = exponents.filter { $0.value != 0 }.map { Factor(atom: $0.key, exponent: $0.value) }
        if let excessive = factors.first(where: { $0.exponent.magnitude > Self.maximumExponentMagnitude }) {
            throw HKError(.errorInvalidArgument,
                          "exponent \(excessive.exponent) of '\(excessive.atom.unitString)' is outside "
                          + "±\(Self.maximumExponentMagnitude)")
        }
        // Each atom is a health unit, but a product of them need not be: Tm^24/pm^23 is a
        // length of 10^564 m, in which every stored distance reads as 0 and in whose reciprocal
        // (pm^24/Tm^23) it reads as +inf, and the type's range cannot be stated at all.
        let scale = factors.reduce(ScaledFactor.one) { $0 * $1.atom.linearFactor.raised(to: $1.exponent) }
        guard let order = scale.orderOfMagnitude, order.magnitude <= Double(Self.maximumScaleExponent) else {
            throw HKError(.errorInvalidArgument,
                          "the unit is about 10^\(scale.orderOfMagnitude.map { Int($0.rounded()) }.map(String.init) ?? "±∞") times "
                          + "its dimension's base unit; a unit must lie within 10^±\(Self.maximumScaleExponent) of it")
        }
        factors.sort { UnitAtom.printsBefore($0.atom, $1.atom) }
        // Everything cancelled (m/m, count/count, m^0): HealthKit's null unit, the empty product,
        // spelled "()" as Apple prints it, which parses back to the same unit.
        self.factors = factors
    }

    /// HealthKit's null unit: every factor cancelled (developer.apple.com/documentation/healthkit/
    /// hkunit/isnull(): "Null units occur only when you create compound units in which all the
    /// units cancel out"). Dimensionless with factor 1, so compatible with `count()`.
    var isNull: Bool { factors.isEmpty }

    func multiplied(by other: UnitExpression) throws(HKError) -> UnitExpression {
        try UnitExpression(factors + other.factors)
    }

    func raised(to power: Int) throws(HKError) -> UnitExpression {
        guard power.magnitude <= Self.maximumExponentMagnitude else {
            throw HKError(.errorInvalidArgument, "power \(power) is outside ±\(Self.maximumExponentMagnitude)")
        }
        return try UnitExpression(factors.map { Factor(atom: $0.atom, exponent: $0.exponent * power) })
    }

    var dimension: UnitDimension {
        factors.reduce(.dimensionless) { $0 * $1.atom.base.dimension.raised(to: $1.exponent) }
    }

    /// The single affine or decibel atom this unit consists of, if it is one.
    var nonlinearScale: UnitScale? {
        guard factors.count == 1, !factors[0].atom.base.scale.isLinear else { return nil }
        return factors[0].atom.base.scale
    }

    /// Factor to the reference unit of `dimension`; for linear units only.
    var linearFactor: ScaledFactor {
        factors.reduce(.one) { $0 * $1.atom.linearFactor.raised(to: $1.exponent) }
    }

    /// HealthKit's printed form: numerator factors joined by "·", then "/" and every
    /// denominator factor ("mL/min·kg" is mL per minute per kilogram). With no numerator the
    /// factors print with negative exponents ("s^-1"), which parses back to the same unit.
    var unitString: String {
        if isNull { return "()" }
        let numerator = factors.filter { $0.exponent > 0 }
        let denominator = factors.filter { $0.exponent < 0 }
        func spell(_ factor: Factor, exponent: Int) -> String {
            exponent == 1 ? factor.atom.unitString : "\(factor.atom.unitString)^\(exponent)"
        }
        if numerator.isEmpty {
            return denominator.map { spell($0, exponent: $0.exponent) }.joined(separator: "·")
        }
        let top = numerator.map { spell($0, exponent: $0.exponent) }.joined(separator: "·")
        if denominator.isEmpty { return top }
        return top + "/" + denominator.map { spell($0, exponent: -$0.exponent) }.joined(separator: "·")
    }
}
