public import Foundation

/// An object that covers a span of time, as HealthKit's `HKSample`.
public class HKSample: HKObject, @unchecked Sendable {
    public let sampleType: HKSampleType
    public let startDate: Date
    public let endDate: Date

    /// Apple (iOS 14.3): true "if the sample's endDate property is distantFuture" — a sample
    /// still open when it was saved (developer.apple.com/documentation/healthkit/hksample/hasundeterminedduration).
    public var hasUndeterminedDuration: Bool { endDate == .distantFuture }

    /// The value as the wire carries it; each subclass also exposes it in HealthKit's form.
    let recordValue: SampleRecord.Value

    init(type: HKSampleType, value: SampleRecord.Value, start: Date, end: Date,
         device: HKDevice?, metadata: [String: Any]?) {
        sampleType = type
        recordValue = value
        startDate = start
        endDate = end
        super.init(metadata: metadata, device: device)
    }

    init(type: HKSampleType, fetched record: SampleRecord, parts: FetchedObjectParts) {
        sampleType = type
        recordValue = record.value
        startDate = record.startDate
        endDate = record.endDate
        super.init(fetched: record.uuid, metadata: record.metadata, device: record.device, source: record.source,
                   parts: parts)
    }

    /// A plain fetched sample (`FetchedSample`): its value in `objects`, no metadata, no series.
    init(type: HKSampleType, plain value: SampleRecord.Value, uuid: UUID, start: Date, end: Date,
         device: HKDevice?, sourceRevision: HKSourceRevision?) {
        sampleType = type
        recordValue = value
        startDate = start
        endDate = end
        super.init(fetched: uuid, device: device, sourceRevision: sourceRevision)
    }

    /// Every sample is an instance of a subclass, whose own `init?(coder:)` reads the archive
    /// (`ArchivedSample`); none is a bare `HKSample`, so an archive naming this class decodes as
    /// nothing.
    public required init?(coder: NSCoder) {
        return nil
    }
}
