import Foundation

/// The checks every sample passes before the broker stores it. Pure, so the SDK can run the
/// same checks early, but only the broker's run is authoritative.
public enum SampleValidator {
    /// Validates `record` and returns it with its value converted to the type's canonical unit.
    public static func canonicalized(_ record: SampleRecord) throws(HKError) -> SampleRecord {
        guard let type = HKObjectType.type(forIdentifier: record.typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "unknown sample type \(record.typeIdentifier.prefix(100))")
        }
        guard record.startDate <= record.endDate else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): start date is after end date")
        }
        var result = record
        switch (type, record.value) {
        case let (quantityType as HKQuantityType, .quantity(value, unitString)):
            let unit = try HKUnit.parse(unitString)
            guard quantityType.is(compatibleWith: unit) else {
                throw HKError(.errorInvalidArgument,
                              "unit \(unitString) is not compatible with \(type.identifier) (expected a unit like \(quantityType.canonicalUnit.unitString))")
            }
            guard value.isFinite else {
                throw HKError(.errorInvalidArgument, "\(type.identifier): value is not a finite number")
            }
            let canonical = try HKQuantity(unit: unit, doubleValue: value).value(in: quantityType.canonicalUnit)
            result.value = .quantity(canonical, unit: quantityType.canonicalUnit.unitString)
        case let (categoryType as HKCategoryType, .category(value)):
            guard categoryType.allowedValues.contains(value) else {
                throw HKError(.errorInvalidArgument, "\(value) is not a value of \(type.identifier)")
            }
        default:
            throw HKError(.errorInvalidArgument, "\(type.identifier) cannot hold this kind of value")
        }
        for key in record.metadata.keys where key.isEmpty || key.utf8.count > 256 {
            throw HKError(.errorInvalidArgument, "metadata keys must have 1 to 256 bytes")
        }
        return result
    }
}
