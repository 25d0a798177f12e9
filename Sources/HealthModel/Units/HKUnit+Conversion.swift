import Foundation

/// Converting values between compatible units; used by `HKQuantity`.
extension HKUnit {
    /// `value` (expressed in this unit) expressed in `target`.
    ///
    /// Linear units convert with one exact ratio; affine temperatures and dBASPL go through
    /// their dimension's reference unit (kelvin, pascal) with their offset or logarithm.
    func convert(_ value: Double, to target: HKUnit) throws(HKError) -> Double {
        let source = try validExpression()
        let destination = try target.validExpression()
        // The stored dimensions (computed once per unit), not recomputed from the expressions.
        guard dimension == target.dimension else {
            throw HKError(.errorInvalidArgument,
                          "cannot convert from '\(unitString)' to '\(target.unitString)': one measures "
                          + "\(source.dimension), the other \(destination.dimension)")
        }
        if source == destination { return value }
        if source.nonlinearScale == nil && destination.nonlinearScale == nil {
            return value * source.linearFactor.ratio(to: destination.linearFactor)
        }
        let reference = Self.toReference(value, source)
        if case .decibel? = destination.nonlinearScale, !(reference > 0) {
            throw HKError(.errorInvalidArgument,
                          "cannot convert to '\(target.unitString)': only a positive pressure has a decibel level")
        }
        return Self.fromReference(reference, destination)
    }

    /// The factor `convert` multiplies by from this unit to `target` — 1 when they are the same
    /// expression — or nil when the conversion is not a plain product (affine, logarithmic,
    /// incompatible or invalid units). For `QuantityUnitPlan`, which must compute what `convert` does.
    func linearRatio(to target: HKUnit) -> Double? {
        guard let source = try? validExpression(), let destination = try? target.validExpression(),
              dimension == target.dimension else { return nil }
        if source == destination { return 1 }
        guard source.nonlinearScale == nil && destination.nonlinearScale == nil else { return nil }
        return source.linearFactor.ratio(to: destination.linearFactor)
    }

    /// `value` (in this unit) in its dimension's reference unit (SI base units, kelvin, pascal):
    /// whether an amount stays finite whatever unit a reader asks for it in.
    func valueInReferenceUnit(_ value: Double) throws(HKError) -> Double {
        Self.toReference(value, try validExpression())
    }

    private func validExpression() throws(HKError) -> UnitExpression {
        switch content {
        case .valid(let expression): return expression
        case .invalid(_, let error): throw error
        }
    }

    private static func toReference(_ value: Double, _ unit: UnitExpression) -> Double {
        switch unit.nonlinearScale {
        case .affine(let offset, let factor)?:
            return (value + offset) * factor
        case .decibel(let referenceLevel)?:
            return referenceLevel.ratio(to: .one) * Self.decibelsToRatio(value)
        case .linear?, nil:
            return value * unit.linearFactor.ratio(to: .one)
        }
    }

    private static func fromReference(_ reference: Double, _ unit: UnitExpression) -> Double {
        switch unit.nonlinearScale {
        case .affine(let offset, let factor)?:
            return reference / factor - offset
        case .decibel(let referenceLevel)?:
            return Self.ratioToDecibels(reference / referenceLevel.ratio(to: .one))
        case .linear?, nil:
            return reference / unit.linearFactor.ratio(to: .one)
        }
    }

    /// Sound pressure level: 20·log10(p / p0).
    private static func decibelsToRatio(_ decibels: Double) -> Double { pow(10, decibels / 20) }
    private static func ratioToDecibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
}
