/// The one check of a quantity value about to be stored: finite as given, finite in the type's
/// canonical unit (1e308 count/ms is infinite in count/s), and inside the type's range from
/// `QuantityValueRanges`. The range is checked in the unit the app used, so the refusal can
/// state it in that unit.
public enum QuantityValueCheck {
    /// Returns `value` converted to `type`'s canonical unit, or throws `errorInvalidArgument`
    /// naming the type, the value, the unit and the allowed range.
    public static func canonical(_ value: Double, unit: HKUnit, unitString: String,
                                 of type: HKQuantityType) throws(HKError) -> Double {
        try canonical(value, plan: QuantityUnitPlan(type, unit: unit, unitString: unitString), unitString: unitString, of: type)
    }

    /// The same with the unit's work done once (`QuantityUnitPlan`): what a save's samples use.
    static func canonical(_ value: Double, plan: QuantityUnitPlan, unitString: String,
                          of type: HKQuantityType) throws(HKError) -> Double {
        guard value.isFinite else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): value \(value) \(unitString) is not a finite number")
        }
        let canonical = try plan.canonical(value, of: type)
        guard canonical.isFinite else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): value \(value) \(unitString) is not a finite number in \(type.canonicalUnit.unitString)")
        }
        if let bounds = plan.boundsInUnit {
            guard bounds.contains(value) || atBound(value, bounds) else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): value \(value) \(unitString) is outside the allowed range \(format(bounds.lowerBound)) to \(format(bounds.upperBound)) \(unitString)")
            }
            // A value accepted on a bound is stored on it, so statistics (which check the
            // canonical range exactly) count it.
            if let stored = plan.storedBounds {
                return min(max(canonical, stored.lowerBound), stored.upperBound)
            }
        } else {
            // A registered type without a row (`QuantityValueRangeTests` keeps every type
            // covered) still gets the general bound, so nothing unbounded is stored. (A row
            // whose unit does not convert also lands here, as before.)
            let ceiling = QuantityValueRanges.ceiling
            guard abs(canonical) <= ceiling else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): value \(value) \(unitString) is outside the allowed range -\(format(ceiling)) to \(format(ceiling)) \(type.canonicalUnit.unitString)")
            }
        }
        return canonical
    }

    /// Converting a bound to the app's unit can miss it by a rounding step (100 °C is
    /// 212.00000000000003 °F), so a value within a billionth of a bound counts as on it.
    static func atBound(_ value: Double, _ bounds: ClosedRange<Double>) -> Bool {
        [bounds.lowerBound, bounds.upperBound].contains { bound in
            abs(value - bound) <= 1e-9 * max(abs(bound), 1e-300)
        }
    }

    /// Bounds printed without a needless ".0" and without float noise from unit conversion
    /// (300 count/min in count/s is 5, shown as 5, not 5.000000000000001).
    static func format(_ bound: Double) -> String {
        let rounded = (bound * 1e9).rounded() / 1e9
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }
}
