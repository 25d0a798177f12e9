/// One day's activity summary (`HKActivitySummary`): what the rings measured and the goals that
/// applied, in the units HealthKit reports them in.
public struct ActivitySummaryRecord: Hashable, Sendable {
    public var day: CalendarDay
    public var totals: ActivityTotals
    public var goals: ActivityGoals
    /// Whether the move ring counts energy or move time that day.
    public var moveMode: HKActivityMoveMode

    public init(day: CalendarDay, totals: ActivityTotals, goals: ActivityGoals = .none, moveMode: HKActivityMoveMode = .activeEnergy) {
        self.day = day
        self.totals = totals
        self.goals = goals
        self.moveMode = moveMode
    }
}

/// What one day's samples add up to.
public struct ActivityTotals: Hashable, Sendable {
    /// Active energy burned, kilocalories, merged across sources by priority.
    public var activeEnergyBurned: Double
    /// Exercise minutes: exercise time merged across sources, plus workout time that no
    /// exercise-time sample covers.
    public var exerciseMinutes: Double
    /// Hours of the day with a `stood` stand-hour sample.
    public var standHours: Int
    /// Move time, minutes, merged across sources by priority.
    public var moveTimeMinutes: Double

    public init(activeEnergyBurned: Double = 0, exerciseMinutes: Double = 0, standHours: Int = 0, moveTimeMinutes: Double = 0) {
        self.activeEnergyBurned = activeEnergyBurned
        self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours
        self.moveTimeMinutes = moveTimeMinutes
    }
}

/// The user's settings as one day of a summary shows them: the goals that applied and the move
/// mode. `.hidden` is what a day shows when the reader may not see the user's settings for it —
/// the same as a user who never set any.
public struct ActivityDaySettings: Hashable, Sendable {
    public var goals: ActivityGoals
    public var moveMode: HKActivityMoveMode

    public init(goals: ActivityGoals, moveMode: HKActivityMoveMode) {
        self.goals = goals
        self.moveMode = moveMode
    }

    public static let hidden = ActivityDaySettings(goals: .none, moveMode: .activeEnergy)
}
