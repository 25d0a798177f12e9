/// The user's daily activity goals — the three rings and the move-time alternative to the move
/// ring. They are settings the user makes in the manager, not samples: no app writes them.
///
/// Each value is in the unit its ring is measured in (the canonical unit of the quantity type
/// behind it). Zero means "no goal", which is also what an app sees on a day whose goals it may
/// not read (ARCHITECTURE.md, "Activity summaries").
public struct ActivityGoals: Hashable, Sendable {
    /// Active energy burned per day, kilocalories.
    public var moveKilocalories: Double
    /// Exercise per day, minutes.
    public var exerciseMinutes: Double
    /// Hours with a stand, per day.
    public var standHours: Double
    /// Move time per day, minutes (the move ring of users whose move mode is `appleMoveTime`).
    public var moveTimeMinutes: Double

    public init(moveKilocalories: Double = 0, exerciseMinutes: Double = 0, standHours: Double = 0, moveTimeMinutes: Double = 0) {
        self.moveKilocalories = moveKilocalories
        self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours
        self.moveTimeMinutes = moveTimeMinutes
    }

    /// No goals set.
    public static let none = ActivityGoals()

    /// The largest value accepted for each goal: more than a day holds (stand hours, minutes)
    /// or than a body can burn in one (energy) is a typing mistake, not a goal.
    public static let maximum = ActivityGoals(moveKilocalories: 20_000, exerciseMinutes: 1_440, standHours: 24,
                                              moveTimeMinutes: 1_440)

    /// Throws `errorInvalidArgument` naming the first goal that is not a finite number between
    /// 0 and its maximum, and (stand hours) not a whole number.
    public func validate() throws(HKError) {
        let checks: [(String, Double, Double, String)] = [
            ("move", moveKilocalories, Self.maximum.moveKilocalories, "kcal"),
            ("exercise", exerciseMinutes, Self.maximum.exerciseMinutes, "min"),
            ("stand", standHours, Self.maximum.standHours, "h"),
            ("move time", moveTimeMinutes, Self.maximum.moveTimeMinutes, "min"),
        ]
        for (name, value, maximum, unit) in checks where !(value.isFinite && value >= 0 && value <= maximum) {
            throw HKError(.errorInvalidArgument, "the \(name) goal must lie between 0 and \(Int(maximum)) \(unit)")
        }
        guard standHours.rounded() == standHours else {
            throw HKError(.errorInvalidArgument, "the stand goal is a whole number of hours")
        }
    }
}
