import Foundation
import HealthKit

// `activity-summaries` command of the scripted app: one line per day,
//   summary YYYY-MM-DD energy=KCAL exercise=MIN stand=HOURS movetime=MIN goals=KCAL/MIN/HOURS/MIN mode=RAW
// then `ok N` (the number of days).

/// `activity-summaries [--from YYYY-MM-DD --to YYYY-MM-DD] [--zone ZONE] [--async]`.
func activitySummaries(_ store: HKHealthStore, _ arguments: [String]) async throws {
    var calendar = Calendar(identifier: .gregorian)
    if let zone = values(of: "--zone", in: arguments).first {
        guard let timeZone = TimeZone(identifier: zone) else { usage("unknown time zone \(zone)") }
        calendar.timeZone = timeZone
    }
    func day(_ flag: String) -> DateComponents? {
        guard let text = values(of: flag, in: arguments).first else { return nil }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { usage("\(flag) takes YYYY-MM-DD") }
        return DateComponents(calendar: calendar, year: parts[0], month: parts[1], day: parts[2])
    }
    var predicate: NSPredicate?
    if let from = day("--from"), let to = day("--to") {
        predicate = HKQuery.predicate(forActivitySummariesBetweenStart: from, end: to)
    }
    let summaries: [HKActivitySummary]
    if arguments.contains("--async") {
        summaries = try await HKActivitySummaryQueryDescriptor(predicate: predicate).result(for: store)
    } else {
        summaries = try await withCheckedThrowingContinuation { continuation in
            store.execute(HKActivitySummaryQuery(predicate: predicate) { _, summaries, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: summaries ?? []) }
            })
        }
    }
    for summary in summaries {
        let day = summary.dateComponents(for: calendar)
        let goals = [summary.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie()),
                     summary.appleExerciseTimeGoal.doubleValue(for: .minute()),
                     summary.appleStandHoursGoal.doubleValue(for: .count()),
                     summary.appleMoveTimeGoal.doubleValue(for: .minute())]
        print(String(format: "summary %04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
              + " energy=\(summary.activeEnergyBurned.doubleValue(for: .kilocalorie()))"
              + " exercise=\(summary.appleExerciseTime.doubleValue(for: .minute()))"
              + " stand=\(summary.appleStandHours.doubleValue(for: .count()))"
              + " movetime=\(summary.appleMoveTime.doubleValue(for: .minute()))"
              + " goals=\(goals.map { "\($0)" }.joined(separator: "/")) mode=\(summary.activityMoveMode.rawValue)")
    }
    print("ok \(summaries.count)")
}
