public import Foundation
import Synchronization

/// Where a live builder's samples come from, as HealthKit's `HKLiveWorkoutDataSource`: the
/// quantity types to collect, each with an optional predicate.
///
/// On Linux there are no workout sensors: the data source collects the samples of these types
/// that are saved while the builder collects — by another app, a sensor bridge, or this app —
/// and that this app may read. healthd decides what is readable exactly as for any query
/// (without read permission for a type, only the app's own samples of it arrive).
public final class HKLiveWorkoutDataSource: NSObject, @unchecked Sendable {
    // @unchecked: the collection table is behind a Mutex; the builder link is weak and locked.
    private let types: Mutex<[HKQuantityType: UncheckedBox<NSPredicate?>]>
    private let builderLink = Mutex<WeakBuilder>(WeakBuilder())

    private struct WeakBuilder: @unchecked Sendable {
        weak var builder: HKLiveWorkoutBuilder?
    }

    /// The types HealthKit's data source collects for `configuration`'s activity: heart rate and
    /// active energy always, the activity's distance type, and swimming strokes for swimming.
    public init(healthStore: HKHealthStore, workoutConfiguration configuration: HKWorkoutConfiguration?) {
        var defaults: [HKQuantityTypeIdentifier] = [.heartRate, .activeEnergyBurned]
        if let activity = configuration?.activityType {
            defaults += WorkoutDistanceTypes.identifiers(for: activity).prefix(1)
            if activity == .swimming { defaults.append(.swimmingStrokeCount) }
        }
        types = Mutex(Dictionary(defaults.map { (HKQuantityType($0), UncheckedBox(value: nil)) }, uniquingKeysWith: { first, _ in first }))
        super.init()
    }

    public var typesToCollect: Set<HKQuantityType> { Set(types.withLock { $0.keys }) }

    /// Collects `quantityType`, only samples matching `predicate` when given (replacing any
    /// earlier predicate for the type). Takes effect at once on a collecting builder.
    public func enableCollection(for quantityType: HKQuantityType, predicate: NSPredicate?) {
        types.withLock { $0[quantityType] = UncheckedBox(value: predicate) }
        builderLink.withLock { $0.builder }?.collectionChanged(for: quantityType)
    }

    public func disableCollection(for quantityType: HKQuantityType) {
        _ = types.withLock { $0.removeValue(forKey: quantityType) }
        builderLink.withLock { $0.builder }?.collectionChanged(for: quantityType)
    }

    /// The type's predicate: nil when not collected, `.some(nil)` for every sample.
    func collection(for quantityType: HKQuantityType) -> UncheckedBox<NSPredicate?>? {
        types.withLock { $0[quantityType] }
    }

    func attach(_ builder: HKLiveWorkoutBuilder?) {
        builderLink.withLock { $0.builder = builder }
    }
}
