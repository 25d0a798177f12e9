public import Foundation

/// A sample holding one value of a category type's enum (e.g. a sleep-analysis stage), as
/// HealthKit's `HKCategorySample`.
public final class HKCategorySample: HKSample, @unchecked Sendable {
    /// The raw value of the type's `HKCategoryValue…` enum.
    public let value: Int
    /// Stored (not a cast of `sampleType`): every initializer is given the typed value.
    public let categoryType: HKCategoryType

    public convenience init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date) {
        self.init(type: type, value: value, start: startDate, end: endDate, device: nil, metadata: nil)
    }

    public convenience init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date,
                            metadata: [String: Any]?) {
        self.init(type: type, value: value, start: startDate, end: endDate, device: nil, metadata: metadata)
    }

    public init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date,
                device: HKDevice?, metadata: [String: Any]?) {
        self.value = value
        categoryType = type
        super.init(type: type, value: .category(value), start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`).
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKCategoryType,
              case let .category(value) = archived.record.value else { return nil }
        self.init(type: type, fetched: archived.record, value: value, parts: archived.parts)
    }

    init(type: HKCategoryType, fetched record: SampleRecord, value: Int, parts: FetchedObjectParts) {
        self.value = value
        categoryType = type
        super.init(type: type, fetched: record, parts: parts)
    }

    /// A plain fetched sample: its value, no metadata.
    init(type: HKCategoryType, plain value: Int, uuid: UUID, start: Date, end: Date,
         device: HKDevice?, sourceRevision: HKSourceRevision?) {
        self.value = value
        categoryType = type
        super.init(type: type, plain: .category(value), uuid: uuid, start: start, end: end,
                   device: device, sourceRevision: sourceRevision)
    }
}
