/// The kind of value a predefined metadata key expects, for validating metadata dictionaries.
public enum HKMetadataValueKind: Hashable, Sendable {
    case string
    /// An NSNumber-like number; for enum-valued keys see
    /// `HKMetadataKeyRegistry.allowedRawValues(forKey:)`.
    case number
    case date
    /// An `HKQuantity` whose unit is compatible with the given unit (the unit stands for its
    /// dimension: `m` means any length). nil: compatible with the sample's own quantity type
    /// (`HKMetadataKeySessionEstimate`).
    case quantity(HKUnit?)
    /// An NSNumber holding 0 or 1.
    case bool
}
