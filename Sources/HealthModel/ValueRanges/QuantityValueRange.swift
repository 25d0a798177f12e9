/// The values one quantity type can hold, in the unit its bounds are written in. Every saved
/// quantity, converted to that unit, must lie in `bounds`; see `QuantityValueRanges` for the
/// table and docs/value-ranges.md for the reasons.
///
/// Every range is finite at both ends, so a sum of stored samples is bounded by the count times
/// the upper bound: statistics over even 2^53 samples cannot overflow to infinity.
public struct QuantityValueRange: Sendable, Equatable {
    /// Why a bound is what it is; shown in docs/value-ranges.md.
    public enum Reason: Sendable, Equatable {
        /// Health Connect's bound for the record named (its `requireInRange`/`requireNotMore`).
        case healthConnect(String)
        /// A physical or physiological limit, explained.
        case physical(String)
        /// Only the sign is known; the upper bound is `QuantityValueRanges.ceiling`.
        case signOnly
    }

    public let identifier: HKQuantityTypeIdentifier
    public let bounds: ClosedRange<Double>
    /// The unit `bounds` are written in (any unit compatible with the type).
    public let unitString: String
    public let reason: Reason

    init(_ identifier: HKQuantityTypeIdentifier, _ bounds: ClosedRange<Double>, _ unitString: String, _ reason: Reason) {
        self.identifier = identifier
        self.bounds = bounds
        self.unitString = unitString
        self.reason = reason
    }

    /// `bounds` converted to `unit`, for checking a value and for telling the app the range in
    /// the unit it used. Nil when `unit` is not compatible with the bounds' unit.
    public func bounds(in unit: HKUnit) -> ClosedRange<Double>? {
        guard let own = try? HKUnit.parse(unitString), own.isCompatible(with: unit),
              let low = try? HKQuantity(unit: own, doubleValue: bounds.lowerBound).value(in: unit),
              let high = try? HKQuantity(unit: own, doubleValue: bounds.upperBound).value(in: unit),
              low.isFinite, high.isFinite
        else { return nil }
        // A unit with a negative scale (none today) would swap the ends.
        return min(low, high)...max(low, high)
    }
}
