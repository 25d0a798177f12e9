import Foundation
import HealthModel

extension HKSample {
    /// The samples of one batch of a query's answer, in order.
    ///
    /// A plain row (a quantity or category value, no metadata, no series: nearly every row of a
    /// large answer) becomes its object straight from the row's scalars; the type, its
    /// aggregation style and the unit are resolved once per batch, and so is every entry of the
    /// batch's source and device tables (`FetchedObjectParts.sourceRevisions(of:)`), which a row
    /// then takes by index. Going through `FetchedSampleBatch.record(at:)` first built a whole
    /// `SampleRecord` per row — about 260 bytes, copied and destroyed again by
    /// `fetched(_:sharing:)` — which was the largest single cost of a 10,000-sample query in the
    /// app (Benchmarks/README.md, "Session 10: queries"). Every other row, and a plain row whose
    /// type is not of its value's kind (which `fetched(_:sharing:)` refuses), goes through the
    /// record path, so both paths give the same objects and the same errors
    /// (`FetchedBatchObjectTests`).
    static func fetched(_ batch: FetchedSampleBatch, sharing parts: FetchedObjectParts) throws(HKError) -> [HKSample] {
        let type = parts.type(batch.typeIdentifier)
        let quantityType = type as? HKQuantityType
        let cumulative = quantityType?.aggregationStyle == .cumulative
        let categoryType = type as? HKCategoryType
        // Only a quantity row reads the unit: a batch of another type has "" here.
        let unit = quantityType == nil ? nil : parts.unit(batch.unit)
        let revisions = parts.sourceRevisions(of: batch.sources)
        let devices = parts.devices(of: batch.devices)
        var samples: [HKSample] = []
        samples.reserveCapacity(batch.rows.count)
        for (index, row) in batch.rows.enumerated() {
            let start = Date(microsecondsSince1970: row.startUS), end = Date(microsecondsSince1970: row.endUS)
            switch row.value {
            case let .quantity(value):
                guard let quantityType, let unit else { break }
                let device = try entry(row.device, of: devices, "device")
                let source = try entry(row.source, of: revisions, "source")
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
                                                device: try entry(row.device, of: devices, "device"),
                                                sourceRevision: try entry(row.source, of: revisions, "source")))
                continue
            case .record:
                break
            }
            samples.append(try fetched(batch.record(at: index), sharing: parts))
        }
        return samples
    }

    /// The table entry a row names (nil for none). `FetchedSampleDecoder` only makes indexes
    /// into its own tables; one outside them is a malformed batch, refused rather than trapped on.
    private static func entry<Part>(_ index: Int32?, of table: [Part?], _ what: String) throws(HKError) -> Part? {
        guard let index else { return nil }
        guard index >= 0, Int(index) < table.count else {
            throw HKError(.unknownError, "healthd sent a sample naming \(what) \(index) of a table of \(table.count)")
        }
        return table[Int(index)]
    }
}
