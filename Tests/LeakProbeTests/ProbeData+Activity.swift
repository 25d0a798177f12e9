import Foundation
import HealthModel
import HealthWire
import TestSupport

/// The samples activity summaries are computed from, on days of November 2023 (UTC; Berlin is
/// an hour ahead, so a sample near midnight falls on another Berlin day), and the user's activity
/// settings, set in the hidden world only. Exercise minutes and stand hours are Apple-computed:
/// no app may save them (`AppWritability`), so the hidden world imports them (`healthctl import`,
/// source "@import/Apple Health/Watch") and the probing apps have none of their own.
///
/// | day (UTC) | hidden app (and import) | probing apps |
/// | --- | --- | --- |
/// | 14th | energy; imported exercise and stand hours; one energy sample running past midnight; the running workout (`saveHiddenObjects`) | energy overlapping the hidden one; the cycling workout |
/// | 15th | the energy sample's last half hour | — |
/// | 16th | energy; imported exercise and a stood hour | — |
/// | 17th | a walking workout only | — |
/// | 19th | — | energy |
extension ProbeData {
    static let activeEnergy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let exerciseTime = HKQuantityTypeIdentifier.appleExerciseTime.rawValue
    static let standHour = HKCategoryTypeIdentifier.appleStandHour.rawValue
    static let activitySummary = HKObjectType.activitySummaryType().identifier
    /// The sample types behind activity summaries that only the system writes (here: the import).
    static let appleComputedActivityTypes = [exerciseTime, standHour]

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

    static func exercise(_ day: Int, _ hour: Double, minutes: Double) -> BrokerProcess.ExportRecord {
        BrokerProcess.ExportRecord(exerciseTime, "\(minutes)", unit: "min", from: activityTime(day, hour),
                                   to: activityTime(day, hour + minutes / 60))
    }

    static func standHour(_ day: Int, _ hour: Double, _ value: HKCategoryValueAppleStandHour) -> BrokerProcess.ExportRecord {
        BrokerProcess.ExportRecord(standHour, "\(value.rawValue)", from: activityTime(day, hour), to: activityTime(day, hour + 1))
    }

    static let hiddenActivity = [
        energy(14, 8, hours: 1, kilocalories: 120),
        energy(14, 23.5, hours: 1, kilocalories: 40),
        energy(16, 10, hours: 1, kilocalories: 200),
        workout(.walking, from: activityTime(17, 18), to: activityTime(17, 19)),
    ]

    static let hiddenImportedActivity = [
        exercise(14, 8, minutes: 15), standHour(14, 8, .stood), standHour(14, 9, .idle),
        exercise(16, 10, minutes: 30), standHour(16, 10, .stood),
    ]

    static let ownActivity = [
        energy(14, 8.5, hours: 1, kilocalories: 80),
        energy(19, 7, hours: 0.5, kilocalories: 30),
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

    static func saveHiddenActivity(through session: ProbeSession, importingInto broker: BrokerProcess) async throws {
        _ = try await save(hiddenActivity, through: session)
        try await broker.importRecords(hiddenImportedActivity)
    }
}
