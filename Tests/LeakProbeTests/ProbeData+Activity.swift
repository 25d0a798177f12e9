import Foundation
import HealthModel
import HealthWire

/// The samples activity summaries are computed from, saved by both kinds of app on days of
/// November 2023 (UTC; Berlin is an hour ahead, so a sample near midnight falls on another
/// Berlin day), and the user's activity settings, set in the hidden world only.
///
/// | day (UTC) | hidden app | probing apps |
/// | --- | --- | --- |
/// | 14th | energy, exercise, stand hours; one energy sample running past midnight; the running workout (`saveHiddenObjects`) | energy and exercise overlapping the hidden ones, a stood hour in the same hour and one more; the cycling workout |
/// | 15th | the energy sample's last half hour | — |
/// | 16th | energy, exercise, a stood hour | — |
/// | 17th | a walking workout only | — |
/// | 19th | — | energy, a stood hour |
extension ProbeData {
    static let activeEnergy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let exerciseTime = HKQuantityTypeIdentifier.appleExerciseTime.rawValue
    static let standHour = HKCategoryTypeIdentifier.appleStandHour.rawValue
    static let activitySummary = HKObjectType.activitySummaryType().identifier
    /// The sample types behind activity summaries that the apps save (workouts are shared already).
    static let activityTypes = [activeEnergy, exerciseTime, standHour]

    /// Midnight UTC at the start of November 14th, 2023, the day `base` falls on.
    static let firstActivityDay = Date(timeIntervalSince1970: 1_699_920_000)

    /// The 2023 November day `day` (UTC and Berlin alike: only its number matters).
    static func november(_ day: Int) -> CalendarDay { CalendarDay(year: 2023, month: 11, day: day)! }

    /// `hour` hours (fractions allowed) after midnight UTC of November `day`.
    static func activityTime(_ day: Int, _ hour: Double) -> Date {
        firstActivityDay.addingTimeInterval(Double(day - 14) * 86_400 + hour * 3_600)
    }

    static func energy(_ day: Int, _ hour: Double, hours: Double, kilocalories: Double) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: activeEnergy, startDate: activityTime(day, hour), endDate: activityTime(day, hour + hours),
                     value: .quantity(kilocalories, unit: "kcal"))
    }

    static func exercise(_ day: Int, _ hour: Double, minutes: Double) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: exerciseTime, startDate: activityTime(day, hour),
                     endDate: activityTime(day, hour + minutes / 60), value: .quantity(minutes, unit: "min"))
    }

    static func standHour(_ day: Int, _ hour: Double, _ value: HKCategoryValueAppleStandHour) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: standHour, startDate: activityTime(day, hour), endDate: activityTime(day, hour + 1),
                     value: .category(value.rawValue))
    }

    static let hiddenActivity = [
        energy(14, 8, hours: 1, kilocalories: 120), exercise(14, 8, minutes: 15), standHour(14, 8, .stood), standHour(14, 9, .idle),
        energy(14, 23.5, hours: 1, kilocalories: 40),
        energy(16, 10, hours: 1, kilocalories: 200), exercise(16, 10, minutes: 30), standHour(16, 10, .stood),
        workout(.walking, from: activityTime(17, 18), to: activityTime(17, 19)),
    ]

    static let ownActivity = [
        energy(14, 8.5, hours: 1, kilocalories: 80), exercise(14, 8 + 10.0 / 60, minutes: 10),
        standHour(14, 8, .stood), standHour(14, 12, .stood),
        energy(19, 7, hours: 0.5, kilocalories: 30), standHour(19, 7, .stood),
    ]

    /// Set by the user in the hidden world only (`healthctl`): goals that change on the 16th, and
    /// the move mode the summaries carry.
    static let hiddenActivitySettings = [
        ["activity", "goals", "set", "--move", "600kcal", "--exercise", "30min", "--stand", "12h", "--from", "2023-11-01"],
        ["activity", "goals", "set", "--move", "650kcal", "--from", "2023-11-16"],
        ["characteristics", "set", "activityMoveMode", "move-time"],
    ]

    /// Set in both worlds: the hidden app's active energy counts first where sources overlap.
    static let activeEnergyPriority = ["sources", "priority", "activeEnergyBurned", "org.probe.hidden"]

    static func workout(_ activity: HKWorkoutActivityType, from start: Date, to end: Date) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: end,
                     value: .workout(WorkoutValue(activityType: activity.rawValue, duration: end.timeIntervalSince(start))))
    }

    static func saveHiddenActivity(through session: ProbeSession) async throws {
        _ = try await save(hiddenActivity, through: session)
    }
}
