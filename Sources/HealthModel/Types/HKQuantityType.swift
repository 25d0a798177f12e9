public import Foundation

/// A quantity type, as HealthKit's `HKQuantityType`: its canonical unit (the unit values are
/// stored in) and how its samples aggregate.
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    public let aggregationStyle: HKQuantityAggregationStyle
    public let canonicalUnit: HKUnit

    init(identifier: HKQuantityTypeIdentifier, canonicalUnit: HKUnit, aggregationStyle: HKQuantityAggregationStyle) {
        self.aggregationStyle = aggregationStyle
        self.canonicalUnit = canonicalUnit
        super.init(identifier: identifier.rawValue)
    }

    /// Takes the registered type's canonical unit and aggregation style, never the archive's;
    /// see `HKObjectType.init?(coder:)`.
    public required convenience init?(coder: NSCoder) {
        guard let registered = Self.registered(decodedFrom: coder, as: HKQuantityType.self) as? HKQuantityType else {
            return nil
        }
        self.init(identifier: HKQuantityTypeIdentifier(rawValue: registered.identifier),
                  canonicalUnit: registered.canonicalUnit, aggregationStyle: registered.aggregationStyle)
    }

    /// HealthKit's `HKQuantityType(.stepCount)`. Like HealthKit, it traps for an identifier
    /// HealthKit does not define: it is meant for the static members, which always exist.
    /// For identifiers from outside (peers, files), use `HKObjectType.quantityType(forIdentifier:)`,
    /// which returns nil instead.
    public convenience init(_ identifier: HKQuantityTypeIdentifier) {
        guard let registered = ObjectTypeRegistry.quantityTypes[identifier] else {
            preconditionFailure("'\(identifier.rawValue)' is not a quantity type identifier; "
                                + "use HKObjectType.quantityType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier, canonicalUnit: registered.canonicalUnit,
                  aggregationStyle: registered.aggregationStyle)
    }

    /// Whether values of this type can be expressed in `unit` (it measures the same dimension
    /// as the canonical unit).
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        canonicalUnit.isCompatible(with: unit)
    }
}
