import Foundation
import HealthModel

extension HKSample {
    /// The samples of one batch of a query's answer, in order.
    ///
    /// A plain row (a quantity or category value, no metadata, no series: nearly every row of a
    /// large answer) becomes its object straight from the row's scalars; the type, its
    /// aggregation style and the unit are resolved once per batch, each source revision and
    /// device once per table index (`FetchedObjectParts.sourceRevision(at:in:)`). Going through
    /// `FetchedSampleBatch.record(at:)` first built a whole `SampleRecord` per row — about 260
    /// bytes, copied and destroyed again by `fetched(_:sharing:)` — which was the largest
    /// single cost of a 10,000-sample query in the app (Benchmarks/README.md, "Session 10:
    /// queries"). Every other row, and a plain row whose type is not of its value's kind (which
    /// `fetched(_:sharing:)` refuses), goes through the record path, so both paths give the
    /// same objects and the same errors (`FetchedBatchObjectTests`).
    ///
    /// Each table index is resolved once per batch (`BatchParts`): asking `parts` per row copied
    /// and compared the row's `SourceRecord` (three strings) to find the revision it already had,
    /// about a quarter of the app's CPU for a 10,000-sample answer (Benchmarks/README.md,
    /// "Session 11: queries and batches").
    static func fetched(_ batch: FetchedSampleBatch, sharing parts: FetchedObjectParts) throws(HKError) -> [HKSample] {
        let type = parts.type(batch.typeIdentifier)
        let quantityType = type as? HKQuantityType
        let cumulative = quantityType?.aggregationStyle == .cumulative
        let categoryType = type as? HKCategoryType
        // Only a quantity row reads the unit: a batch of another type has "" here.
        let unit = quantityType == nil ? nil : parts.unit(batch.unit)
        var shared = BatchParts(parts, batch)
        var samples: [HKSample] = []
        samples.reserveCapacity(batch.rows.count)
        for (index, row) in batch.rows.enumerated() {
            let start = Date(microsecondsSince1970: row.startUS), end = Date(microsecondsSince1970: row.endUS)
            switch row.value {
            case let .quantity(value):
                guard let quantityType, let unit else { break }
                let device = shared.device(at: row.device)
                let source = shared.sourceRevision(at: row.source)
                samples.append(cumulative
                    ? HKCumulativeQuantitySample(type: quantityType, plain: value, unit: unit, unitText: batch.unit, uuid: row.uuid,
                                                 start: start, end: end, device: device, sourceRevision: source)
                    : HKDiscreteQuantitySample(type: quantityType, plain: value, unit: unit, unitText: batch.unit, uuid: row.uuid,
                                               start: start, end: end, device: device, sourceRevision: source))
                continue
            case let .category(value):
                guard let categoryType else { break }
                samples.append(HKCategorySample(type: categoryType, plain: Int(truncatingIfNeeded: value), uuid: row.uuid,
                                                start: start, end: end,
                                                device: shared.device(at: row.device),
                                                sourceRevision: shared.sourceRevision(at: row.source)))
                continue
            case .record:
                break
            }
            samples.append(try fetched(batch.record(at: index), sharing: parts))
        }
        return samples
    }
}

/// One batch's source revisions and devices by table index, each asked of `FetchedObjectParts`
/// on its first use in the batch and then read back by index: within one batch the tables
/// cannot change, so the answer for an index cannot either.
private struct BatchParts {
    private let parts: FetchedObjectParts
    private let sources: [SourceRecord]
    private let devices: [DeviceRecord]
    /// Resolved entries by index; nil until first asked for.
    private var revisions: [HKSourceRevision?]
    private var resolvedDevices: [HKDevice?]

    init(_ parts: FetchedObjectParts, _ batch: FetchedSampleBatch) {
        self.parts = parts
        sources = batch.sources
        devices = batch.devices
        revisions = Array(repeating: nil, count: batch.sources.count)
        resolvedDevices = Array(repeating: nil, count: batch.devices.count)
    }

    mutating func sourceRevision(at index: Int32?) -> HKSourceRevision? {
        guard let index else { return nil }
        let position = Int(index)
        if revisions.indices.contains(position), let known = revisions[position] { return known }
        let revision = parts.sourceRevision(at: index, in: sources)
        if revisions.indices.contains(position) { revisions[position] = revision }
        return revision
    }

    mutating func device(at index: Int32?) -> HKDevice? {
        guard let index else { return nil }
        let position = Int(index)
        if resolvedDevices.indices.contains(position), let known = resolvedDevices[position] { return known }
        let device = parts.device(at: index, in: devices)
        if resolvedDevices.indices.contains(position) { resolvedDevices[position] = device }
        return device
    }
}
