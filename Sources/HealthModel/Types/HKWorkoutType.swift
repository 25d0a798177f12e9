public import Foundation

/// The workout type, as HealthKit's `HKWorkoutType`; there is exactly one, identified by
/// `HKWorkoutTypeIdentifier`.
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKWorkoutTypeIdentifier)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
