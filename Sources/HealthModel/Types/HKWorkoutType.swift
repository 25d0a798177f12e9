/// The workout type, as HealthKit's `HKWorkoutType`; there is exactly one.
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {
    /// HealthKit's `HKWorkoutTypeIdentifier`.
    public static let identifier = "HKWorkoutTypeIdentifier"

    init() {
        super.init(identifier: Self.identifier)
    }
}
