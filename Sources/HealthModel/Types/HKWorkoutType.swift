/// The workout type, as HealthKit's `HKWorkoutType`; there is exactly one, identified by
/// `HKWorkoutTypeIdentifier`.
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKWorkoutTypeIdentifier)
    }
}
