/// A change of goals: the goals that apply from `effectiveFrom` until the next later change.
public struct ActivityGoalChange: Hashable, Sendable {
    public var effectiveFrom: CalendarDay
    public var goals: ActivityGoals

    public init(effectiveFrom: CalendarDay, goals: ActivityGoals) {
        self.effectiveFrom = effectiveFrom
        self.goals = goals
    }
}

/// Goals over time. Past days keep the goals that applied to them when the user changes goals
/// later: a day's goals are those of the latest change on or before it, none before the first.
public struct ActivityGoalSchedule: Hashable, Sendable {
    /// Sorted by `effectiveFrom`, at most one change per day.
    public private(set) var changes: [ActivityGoalChange]

    public init(_ changes: [ActivityGoalChange] = []) {
        var byDay: [CalendarDay: ActivityGoalChange] = [:]
        for change in changes { byDay[change.effectiveFrom] = change }
        self.changes = byDay.values.sorted { $0.effectiveFrom < $1.effectiveFrom }
    }

    /// The goals that apply on `day`.
    public func goals(on day: CalendarDay) -> ActivityGoals {
        changes.last { $0.effectiveFrom <= day }?.goals ?? .none
    }
}
