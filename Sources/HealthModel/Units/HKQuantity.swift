public import Foundation

/// An amount in a unit, as HealthKit's `HKQuantity`: immutable, converted on demand.
///
/// `description` deliberately omits the value ("HKQuantity(<value> count/min)"): quantities
/// are health data, and descriptions end up in logs and error text.
public final class HKQuantity: Hashable, CustomStringConvertible, Sendable {
    /// The unit the quantity was created with. Not part of HealthKit's API; it lets the wire
    /// and storage layers keep a value exactly as it was written.
    public let unit: HKUnit
    private let value: Double

    public init(unit: HKUnit, doubleValue: Double) {
        self.unit = unit
        self.value = doubleValue
    }

    /// HealthKit's accessor. HealthKit raises an exception for an incompatible unit; this
    /// returns NaN instead (and for an invalid unit on either side), so a bad unit from a peer
    /// can never take a process down. Use `value(in:)` to learn why a conversion failed.
    public func doubleValue(for unit: HKUnit) -> Double {
        (try? value(in: unit)) ?? .nan
    }

    /// The value in `unit`, or `errorInvalidArgument` naming both units when they are
    /// incompatible or either is invalid.
    public func value(in unit: HKUnit) throws(HKError) -> Double {
        try self.unit.convert(value, to: unit)
    }

    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        self.unit.isCompatible(with: unit)
    }

    /// Orders by magnitude when the units are compatible (the other quantity is converted
    /// into this one's unit). HealthKit raises an exception for incompatible quantities; this
    /// orders them by `unitString` instead, so sorting a mixed collection is deterministic and
    /// never traps — check `is(compatibleWith:)` first when that distinction matters. NaN
    /// values compare as `.orderedSame` with everything.
    public func compare(_ other: HKQuantity) -> ComparisonResult {
        guard let otherValue = try? other.unit.convert(other.value, to: unit) else {
            if unit == other.unit { return Self.order(value, other.value) }
            return unit.unitString < other.unit.unitString ? .orderedAscending : .orderedDescending
        }
        return Self.order(value, otherValue)
    }

    private static func order(_ lhs: Double, _ rhs: Double) -> ComparisonResult {
        if lhs < rhs { return .orderedAscending }
        if lhs > rhs { return .orderedDescending }
        return .orderedSame
    }

    /// Equal when written with the same unit and the same value: 1 km and 1000 m are not
    /// `==` (use `compare(_:)` for magnitudes), which keeps hashing exact.
    public static func == (lhs: HKQuantity, rhs: HKQuantity) -> Bool {
        lhs.unit == rhs.unit && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(unit)
        hasher.combine(value)
    }

    public var description: String { "HKQuantity(<value> \(unit.unitString))" }
}
