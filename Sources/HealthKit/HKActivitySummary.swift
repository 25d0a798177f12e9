public import Foundation

/// One day of the user's activity rings, as HealthKit's `HKActivitySummary`: what the day's
/// samples add up to and the goals the user had set for it. Summaries come from
/// `HKActivitySummaryQuery`; apps may also create and fill one themselves (HealthKit allows it,
/// to draw rings), which is never saved.
///
/// A reader without read permission for activity summaries gets the summaries of its own samples
/// with zero goals, exactly what a user who never set goals would show (ARCHITECTURE.md,
/// "Activity summaries").
public final class HKActivitySummary: @unchecked Sendable {
    /// Kilocalories of active energy burned: the move ring in `.activeEnergy` mode.
    public var activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
    public var activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
    /// Minutes of move time: the move ring in `.appleMoveTime` mode.
    public var appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 0)
    public var appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
    public var appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 0)
    public var appleExerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
    /// Hours with a stand, as a count.
    public var appleStandHours = HKQuantity(unit: .count(), doubleValue: 0)
    public var appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: 0)
    public var activityMoveMode: HKActivityMoveMode = .activeEnergy
    /// The user paused their rings for the day. Pausing is not modelled here: always false.
    public var isPaused = false

    /// The day, and the time zone its days were computed in; nil for a summary an app made.
    private(set) var day: CalendarDay?
    private var timeZone = TimeZone.current

    public init() {}

    init(_ record: ActivitySummaryRecord, timeZone: TimeZone) {
        day = record.day
        self.timeZone = timeZone
        activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: record.totals.activeEnergyBurned)
        activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: record.goals.moveKilocalories)
        appleMoveTime = HKQuantity(unit: .minute(), doubleValue: record.totals.moveTimeMinutes)
        appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: record.goals.moveTimeMinutes)
        appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: record.totals.exerciseMinutes)
        appleExerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: record.goals.exerciseMinutes)
        appleStandHours = HKQuantity(unit: .count(), doubleValue: Double(record.totals.standHours))
        appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: record.goals.standHours)
        activityMoveMode = record.moveMode
    }

    /// The exercise goal (HealthKit 16's optional form of `appleExerciseTimeGoal`).
    public var exerciseTimeGoal: HKQuantity? {
        get { appleExerciseTimeGoal }
        set { appleExerciseTimeGoal = newValue ?? HKQuantity(unit: .minute(), doubleValue: 0) }
    }

    /// The stand goal (HealthKit 16's optional form of `appleStandHoursGoal`).
    public var standHoursGoal: HKQuantity? {
        get { appleStandHoursGoal }
        set { appleStandHoursGoal = newValue ?? HKQuantity(unit: .count(), doubleValue: 0) }
    }

    /// The summary's day in `calendar` (era, year, month, day, with the calendar set); empty
    /// components for a summary an app created.
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        guard let day else { return DateComponents() }
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        guard let noon = local.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) else {
            return DateComponents()
        }
        var calendar = calendar
        calendar.timeZone = timeZone
        var components = calendar.dateComponents([.era, .year, .month, .day], from: noon)
        components.calendar = calendar
        return components
    }
}
