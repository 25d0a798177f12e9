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
    static func fetched(_ batch: FetchedSampleBatch, sharing parts: FetchedObjectParts) throws(HKError) -> [HKSample] {
        let type = parts.type(batch.typeIdentifier)
        let quantityType = type as? HKQuantityType
        let cumulative = quantityType?.aggregationStyle == .cumulative
        let categoryType = type as? HKCategoryType
        // Only a quantity row reads the unit: a batch of another type has "" here.
        let unit = quantityType == nil ? nil : parts.unit(batch.unit)
        var samples: [HKSample] = []
        samples.reserveCapacity(batch.rows.count)
        for (index, row) in batch.rows.enumerated() {
            let start = Date(microsecondsSince1970: row.startUS), end = Date(microsecondsSince1970: row.endUS)
            switch row.value {
            case let .quantity(value):
                guard let quantityType, let unit else { break }
                let device = parts.device(at: row.device, in: batch.devices)
                let source = parts.sourceRevision(at: row.source, in: batch.sources)
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
                                                device: parts.device(at: row.device, in: batch.devices),
                                                sourceRevision: parts.sourceRevision(at: row.source, in: batch.sources)))
                continue
            case .record:
                break
            }
            samples.append(try fetched(batch.record(at: index), sharing: parts))
        }
        return samples
    }
}
