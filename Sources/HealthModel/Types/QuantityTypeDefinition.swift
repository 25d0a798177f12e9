/// One row of the quantity-type table: what the registry builds an `HKQuantityType` from.
struct QuantityTypeDefinition: Sendable {
    let identifier: HKQuantityTypeIdentifier
    /// HealthKit's canonical unit string; parsed once when the registry is built.
    let canonicalUnit: String
    let aggregationStyle: HKQuantityAggregationStyle

    init(_ identifier: HKQuantityTypeIdentifier, canonicalUnit: String, _ aggregationStyle: HKQuantityAggregationStyle) {
        self.identifier = identifier
        self.canonicalUnit = canonicalUnit
        self.aggregationStyle = aggregationStyle
    }
}
