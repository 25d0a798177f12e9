public import Foundation

/// One measured amount over a span of time, as HealthKit's `HKQuantitySample`.
public class HKQuantitySample: HKSample, @unchecked Sendable {
    public let quantity: HKQuantity
    /// Stored (not a cast of `sampleType`): every initializer is given the typed value.
    public let quantityType: HKQuantityType
    /// How many values this sample aggregates. Always 1: quantity series (HKQuantitySeriesSampleBuilder) are not built yet.
    public var count: Int { 1 }

    public convenience init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, device: nil, metadata: nil)
    }

    public convenience init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
                            metadata: [String: Any]?) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, device: nil, metadata: metadata)
    }

    /// The quantity keeps the unit it was written in; the broker converts to the type's
    /// canonical unit when it stores it, and rejects units of the wrong dimension.
    public init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
                device: HKDevice?, metadata: [String: Any]?) {
        self.quantity = quantity
        self.quantityType = quantityType
        super.init(type: quantityType,
                   value: .quantity(quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString),
                   start: startDate, end: endDate, device: device, metadata: metadata)
    }

    init(type quantityType: HKQuantityType, fetched record: SampleRecord, value: Double, unit: String,
         parts: FetchedObjectParts) {
        quantity = HKQuantity(unit: parts.unit(unit), doubleValue: value)
        self.quantityType = quantityType
        super.init(type: quantityType, fetched: record, parts: parts)
    }
}
