public import Foundation

/// A fetched sample of a cumulative type (steps, energy, distance…), as HealthKit's
/// `HKCumulativeQuantitySample`: HealthKit hands these out for every stored sample of such a
/// type, so `sample as? HKCumulativeQuantitySample` and `sumQuantity` work on what queries
/// return. A sample holds one value here (`count` 1): its sum is its quantity.
public final class HKCumulativeQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The sum of the sample's values.
    public var sumQuantity: HKQuantity { quantity }
}
