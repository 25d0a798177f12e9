/// A change the user asks for: only the goals given change, the others keep the values that
/// apply on `effectiveFrom` (`healthctl activity goals set --stand 10h` leaves the move goal).
public struct ActivityGoalUpdate: Hashable, Sendable {
    public var effectiveFrom: CalendarDay
    public var moveKilocalories: Double?
    public var exerciseMinutes: Double?
    public var standHours: Double?
    public var moveTimeMinutes: Double?

    public init(effectiveFrom: CalendarDay, moveKilocalories: Double? = nil, exerciseMinutes: Double? = nil,
                standHours: Double? = nil, moveTimeMinutes: Double? = nil) {
        self.effectiveFrom = effectiveFrom
        self.moveKilocalories = moveKilocalories
        self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours
        self.moveTimeMinutes = moveTimeMinutes
    }

    public var changesNothing: Bool {
        moveKilocalories == nil && exerciseMinutes == nil && standHours == nil && moveTimeMinutes == nil
    }

    /// The complete goals from `effectiveFrom` on, given the goals that applied that day before.
    public func applied(to current: ActivityGoals) -> ActivityGoals {
        ActivityGoals(moveKilocalories: moveKilocalories ?? current.moveKilocalories,
                      exerciseMinutes: exerciseMinutes ?? current.exerciseMinutes,
                      standHours: standHours ?? current.standHours,
                      moveTimeMinutes: moveTimeMinutes ?? current.moveTimeMinutes)
    }
}
