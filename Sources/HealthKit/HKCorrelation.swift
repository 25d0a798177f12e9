public import Foundation

/// A sample that groups related samples — a blood-pressure reading (one systolic and one
/// diastolic sample) or a food (dietary samples) — as HealthKit's `HKCorrelation`.
///
/// Saving one needs share permission for the types of its samples (a correlation type cannot
/// be authorized); the broker checks the rules of `CorrelationRules` and stores each sample as
/// an ordinary sample too, so a query of systolic pressure finds the systolic half of every
/// blood-pressure correlation. After a successful save the correlation and each of its samples
/// carry the broker's UUIDs.
public final class HKCorrelation: HKSample, @unchecked Sendable {
    /// The samples in a fixed order (by type identifier, then dates): the order in which they
    /// are sent and in which the broker answers with their UUIDs.
    let orderedObjects: [HKSample]

    public var objects: Set<HKSample> { Set(orderedObjects) }
    /// Stored (not a cast of `sampleType`): every initializer is given the typed value.
    public let correlationType: HKCorrelationType

    public convenience init(type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
                            objects: Set<HKSample>) {
        self.init(type: correlationType, start: startDate, end: endDate, objects: objects, device: nil, metadata: nil)
    }

    public convenience init(type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
                            objects: Set<HKSample>, metadata: [String: Any]?) {
        self.init(type: correlationType, start: startDate, end: endDate, objects: objects, device: nil, metadata: metadata)
    }

    public init(type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
                objects: Set<HKSample>, device: HKDevice?, metadata: [String: Any]?) {
        // Sorted into a local first: reading the stored property back before `super.init` (as
        // `orderedObjects.map`) crashed Swift 6.3's optimizer (SIL CopyPropagation) in release builds.
        let ordered = Self.ordered(objects)
        let records = ordered.map { $0.matchingRecord }
        orderedObjects = ordered
        self.correlationType = correlationType
        super.init(type: correlationType, value: .correlation(records),
                   start: startDate, end: endDate, device: device, metadata: metadata)
    }

    private static func ordered(_ objects: Set<HKSample>) -> [HKSample] {
        objects.sorted {
            ($0.sampleType.identifier, $0.startDate, $0.endDate) < ($1.sampleType.identifier, $1.startDate, $1.endDate)
        }
    }

    /// Reads an archive (`ArchivedSample`), its members built as fetched ones.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKCorrelationType,
              case let .correlation(members) = archived.record.value,
              let objects = try? members.map({ (member) throws(HKError) in try HKSample.fetched(member, sharing: archived.parts) })
        else { return nil }
        self.init(type: type, fetched: archived.record, objects: objects, parts: archived.parts)
    }

    init(type correlationType: HKCorrelationType, fetched record: SampleRecord, objects: [HKSample],
         parts: FetchedObjectParts) {
        orderedObjects = objects
        self.correlationType = correlationType
        super.init(type: correlationType, fetched: record, parts: parts)
    }

    /// The samples of one type, e.g. the systolic half of a blood-pressure reading.
    public func objects(for objectType: HKObjectType) -> Set<HKSample> {
        Set(orderedObjects.filter { $0.sampleType == objectType })
    }
}

extension HKSample {
    /// This sample and, for a correlation, its samples: the order of the UUIDs a save returns.
    var savedObjects: [HKSample] {
        guard let correlation = self as? HKCorrelation else { return [self] }
        return [self] + correlation.orderedObjects
    }
}
