public import Foundation

/// A fetched sample of a cumulative type (steps, energy, distance…), as HealthKit's
/// `HKCumulativeQuantitySample`: HealthKit hands these out for every stored sample of such a
/// type, so `sample as? HKCumulativeQuantitySample` and `sumQuantity` work on what queries
/// return. Its `quantity` is already the sum of its quantities (one, or a series' `count`).
public final class HKCumulativeQuantitySample: HKQuantitySample, @unchecked Sendable {
    /// The sum of the sample's quantities.
    public var sumQuantity: HKQuantity { quantity }
}
