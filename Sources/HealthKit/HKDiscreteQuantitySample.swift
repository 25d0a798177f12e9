public import Foundation

/// A fetched sample of a discrete type (heart rate, body mass…), as HealthKit's
/// `HKDiscreteQuantitySample`. A sample holds one value here (`count` 1), so its minimum,
/// average, maximum and most recent quantities are that value, over the sample's own span —
/// what HealthKit reports for a sample saved with `HKQuantitySample(type:quantity:start:end:)`.
public final class HKDiscreteQuantitySample: HKQuantitySample, @unchecked Sendable {
    public var minimumQuantity: HKQuantity { quantity }
    public var averageQuantity: HKQuantity { quantity }
    public var maximumQuantity: HKQuantity { quantity }
    public var mostRecentQuantity: HKQuantity { quantity }
    public var mostRecentQuantityDateInterval: DateInterval { DateInterval(start: startDate, end: endDate) }
}
