/// Wraps how the user's move goal is measured, as HealthKit's `HKActivityMoveModeObject`
/// (what `HKHealthStore.activityMoveMode()` returns).
public final class HKActivityMoveModeObject: Sendable {
    public let activityMoveMode: HKActivityMoveMode

    init(_ activityMoveMode: HKActivityMoveMode) {
        self.activityMoveMode = activityMoveMode
    }
}
