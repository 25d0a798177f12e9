/// The type of daily activity summaries (move, exercise and stand rings), as HealthKit's
/// `HKActivitySummaryType`; there is exactly one.
public final class HKActivitySummaryType: HKObjectType, @unchecked Sendable {
    init() {
        super.init(identifier: activitySummaryTypeIdentifier)
    }
}
