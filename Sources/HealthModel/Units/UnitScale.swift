/// How a unit's values map onto its dimension's reference unit (gram, meter, second, kelvin,
/// ampere, candela, radian, or the unit itself for the opaque axes).
enum UnitScale: Hashable, Sendable {
    /// reference = value × factor.
    case linear(ScaledFactor)
    /// reference = (value + offset) × factor. Degrees Celsius and Fahrenheit: their zero is
    /// not the reference's zero, so they cannot be multiplied into compound units.
    case affine(offset: Double, factor: Double)
    /// reference = referenceLevel × 10^(value / 20): decibels of sound pressure (dBASPL, whose
    /// reference level is 20 µPa). Like affine units, usable only on their own.
    case decibel(referenceLevel: ScaledFactor)

    var isLinear: Bool {
        if case .linear = self { return true }
        return false
    }
}
