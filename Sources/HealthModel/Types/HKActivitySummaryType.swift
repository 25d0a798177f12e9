public import Foundation

/// The type of daily activity summaries (move, exercise and stand rings), as HealthKit's
/// `HKActivitySummaryType`; there is exactly one.
public final class HKActivitySummaryType: HKObjectType, @unchecked Sendable {
    init() {
        super.init(identifier: activitySummaryTypeIdentifier)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
