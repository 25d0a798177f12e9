import Foundation
import HealthModel

/// What `HKQuantitySeriesSampleQuery` and `HKQuantitySeriesSampleQueryDescriptor` share: the
/// quantity samples a predicate selects (one ordinary sample query, under the type's read
/// scope), then each series sample's quantities (`QuerySeriesData`, under the same scope; a
/// single-quantity sample is its own one quantity and costs no call), in HealthKit's order.
enum QuantitySeriesReader {
    struct Entry {
        let quantity: HKQuantity
        let dateInterval: DateInterval
        let sample: HKQuantitySample
    }

    /// Every quantity of the samples `spec` selects. HealthKit's order: all quantities by their
    /// own start date; with `groupedBySample`, the samples by start date, each sample's
    /// quantities in order (Apple: orderByQuantitySampleStartDate).
    static func read(_ spec: SampleQuerySpec, type: HKQuantityType, groupedBySample: Bool,
                     on connection: BrokerConnection) async throws(HKError) -> [Entry] {
        var sorted = spec
        sorted.sort = [SampleSort(.startDate, ascending: true)]
        sorted.limit = 0
        let samples = try await connection.samples(matching: sorted).compactMap { $0 as? HKQuantitySample }
        var entries: [Entry] = []
        for sample in samples {
            guard sample.count > 1 else {
                entries.append(Entry(quantity: sample.quantity, dateInterval: DateInterval(start: sample.startDate, end: sample.endDate),
                                     sample: sample))
                continue
            }
            let unit = sample.quantity.unit
            try await connection.seriesPoints(sample.uuid, typeIdentifier: type.identifier) { _, points, _ in
                guard case let .quantities(data) = points else { return }
                for datum in data {
                    entries.append(Entry(quantity: HKQuantity(unit: unit, doubleValue: datum.value),
                                         dateInterval: DateInterval(start: datum.start, end: max(datum.start, datum.end)),
                                         sample: sample))
                }
            }
        }
        if !groupedBySample {
            // Stable: quantities that start together keep their samples' order.
            entries = entries.enumerated().sorted {
                ($0.element.dateInterval.start, $0.offset) < ($1.element.dateInterval.start, $1.offset)
            }.map(\.element)
        }
        return entries
    }
}
