/// The type of daily activity summaries (move, exercise and stand rings), as HealthKit's
/// `HKActivitySummaryType`; there is exactly one.
public final class HKActivitySummaryType: HKObjectType, @unchecked Sendable {
    /// HealthKit's identifier for the activity summary type.
    public static let identifier = "HKActivitySummaryTypeIdentifier"

    init() {
        super.init(identifier: Self.identifier)
    }
}
