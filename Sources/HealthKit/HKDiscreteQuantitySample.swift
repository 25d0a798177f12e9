public import Foundation

/// A fetched sample of a discrete type (heart rate, body mass…), as HealthKit's
/// `HKDiscreteQuantitySample`. For a single-quantity sample the minimum, average, maximum and
/// most recent quantities are that quantity over the sample's own span — what HealthKit reports
/// for a sample saved with `HKQuantitySample(type:quantity:start:end:)`. For a series
/// (`count` > 1) they summarize its quantities, and `quantity` is `averageQuantity`.
public final class HKDiscreteQuantitySample: HKQuantitySample, @unchecked Sendable {
    public var minimumQuantity: HKQuantity { series.map { summary(\.minimum, of: $0) } ?? quantity }
    public var averageQuantity: HKQuantity { quantity }
    public var maximumQuantity: HKQuantity { series.map { summary(\.maximum, of: $0) } ?? quantity }
    public var mostRecentQuantity: HKQuantity { series.map { summary(\.mostRecent, of: $0) } ?? quantity }
    public var mostRecentQuantityDateInterval: DateInterval {
        guard let series else { return DateInterval(start: startDate, end: endDate) }
        return DateInterval(start: series.mostRecentStart, end: max(series.mostRecentStart, series.mostRecentEnd))
    }

    /// A summary value: the series' values are in `quantity`'s unit (both canonical once stored).
    private func summary(_ value: KeyPath<QuantitySeries, Double>, of series: QuantitySeries) -> HKQuantity {
        HKQuantity(unit: quantity.unit, doubleValue: series[keyPath: value])
    }
}
