public import Foundation

/// One measured amount over a span of time, as HealthKit's `HKQuantitySample`.
public class HKQuantitySample: HKSample, @unchecked Sendable {
    public let quantity: HKQuantity
    /// Stored (not a cast of `sampleType`): every initializer is given the typed value.
    public let quantityType: HKQuantityType
    /// How many quantities this sample holds: 1 for a sample made with an initializer, more for
    /// one built by `HKQuantitySeriesSampleBuilder` (then `quantity` is their sum for a
    /// cumulative type, their average for a discrete one, and `HKQuantitySeriesSampleQuery`
    /// reads them one by one).
    public var count: Int { series?.count ?? 1 }
    /// The series' summary (and, before it is saved, its quantities) in `quantity`'s unit; nil
    /// for a single-quantity sample.
    var series: QuantitySeries? { seriesBox?.series }
    /// Boxed: an optional `QuantitySeries` held inline made every quantity sample about 60 bytes
    /// larger for the few that are series — memory a 10,000-sample answer allocates, touches
    /// and frees again (Benchmarks/README.md, "Session 14").
    private let seriesBox: SeriesBox?

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
        seriesBox = nil
        super.init(type: quantityType,
                   value: .quantity(quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString),
                   start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// A series `HKQuantitySeriesSampleBuilder` made: `quantity` is in the type's canonical
    /// unit, as are `series`' values.
    init(type quantityType: HKQuantityType, quantity: HKQuantity, series: QuantitySeries, start startDate: Date, end endDate: Date,
         device: HKDevice?, metadata: [String: Any]?) {
        self.quantity = quantity
        self.quantityType = quantityType
        seriesBox = SeriesBox(series)
        super.init(type: quantityType,
                   value: .quantity(quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString),
                   start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`); inherited by `HKCumulativeQuantitySample` and
    /// `HKDiscreteQuantitySample`, each of which decodes only samples of its aggregation style.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKQuantityType,
              case let .quantity(value, unit) = archived.record.value else { return nil }
        let cumulative = type.aggregationStyle == .cumulative
        if Self.self == HKCumulativeQuantitySample.self && !cumulative { return nil }
        if Self.self == HKDiscreteQuantitySample.self && cumulative { return nil }
        self.init(type: type, fetched: archived.record, value: value, unit: unit, parts: archived.parts)
    }

    init(type quantityType: HKQuantityType, fetched record: SampleRecord, value: Double, unit: String,
         parts: FetchedObjectParts) {
        quantity = HKQuantity(unit: parts.unit(unit), doubleValue: value)
        self.quantityType = quantityType
        seriesBox = record.quantitySeries.map(SeriesBox.init)
        super.init(type: quantityType, fetched: record, parts: parts)
    }

    /// A plain fetched sample: one quantity, in `unit` (the answer's canonical unit, whose
    /// text is `unitText`), no metadata, no series.
    init(type quantityType: HKQuantityType, plain value: Double, unit: HKUnit, unitText: String, uuid: UUID,
         start: Date, end: Date, device: HKDevice?, sourceRevision: HKSourceRevision?) {
        quantity = HKQuantity(unit: unit, doubleValue: value)
        self.quantityType = quantityType
        seriesBox = nil
        super.init(type: quantityType, plain: .quantity(value, unit: unitText), uuid: uuid, start: start, end: end,
                   device: device, sourceRevision: sourceRevision)
    }
}

/// A quantity series' summary, kept apart from the sample that has one (`HKQuantitySample.series`).
private final class SeriesBox: Sendable {
    let series: QuantitySeries

    init(_ series: QuantitySeries) {
        self.series = series
    }
}
