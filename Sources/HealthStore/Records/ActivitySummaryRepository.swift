public import Foundation
import GRDB
public import HealthModel

/// Activity summaries, computed at each query from the samples one read scope admits
/// (`ActivitySummaryCalculator`) and the user's settings for the days that have data.
public struct ActivitySummaryRepository: Sendable {
    let writer: any DatabaseWriter

    /// What one query read and produced.
    public struct Outcome: Sendable {
        public var summaries: [ActivitySummaryRecord]
        /// Samples and workouts the summaries were computed from (the access log's count).
        public var sampleCount: Int
    }

    /// The summaries of the days `spec` asks for that hold data `scope` admits, in day order.
    ///
    /// Every read — the four sample types, workouts, goals, move mode — happens in one read
    /// transaction, confined by `SampleSQL.visibility(scope)`. Errors that do not depend on data
    /// (time zone, order and number of days) are thrown before the first read. `snapshot`: a
    /// stream's (`ReadSnapshot`) — a reading after its first counts only samples committed by the
    /// first.
    public func summaries(_ spec: ActivitySummaryQuerySpec, scope visibility: Visibility,
                          within snapshot: ReadSnapshot? = nil) throws -> Outcome {
        let timeZone = try spec.validatedTimeZone()
        var days: ActivityDayGrid?
        var window = TimeSpan.unbounded
        if let first = spec.firstDay, let last = spec.lastDay {
            days = try ActivityDayGrid.days(from: first, through: last, in: timeZone)
            window = days!.span
        } else {
            if let first = spec.firstDay {
                window.start = try ActivityDayGrid.days(from: first, through: first, in: timeZone).span.start
            }
            if let last = spec.lastDay {
                window.end = try ActivityDayGrid.days(from: last, through: last, in: timeZone).span.end
            }
        }
        return try writer.read { db in
            let samples = try Self.samples(db, window: window, scope: visibility, through: try snapshot.confinement(db))
            if days == nil, let extent = samples.extent {
                let covered = try ActivityDayGrid.covering(extent, in: timeZone)
                days = try ActivityDayGrid.days(from: spec.firstDay ?? covered.firstDay,
                                                through: spec.lastDay ?? covered.day(at: covered.count - 1), in: timeZone)
            }
            guard let days else { return Outcome(summaries: [], sampleCount: 0) }
            let totals = ActivitySummaryCalculator.totals(of: samples, days: days)
            let summaries = try totals.map { day in
                let settings = try Self.settings(db, on: day.day, startingAt: day.start, scope: visibility.scope)
                return ActivitySummaryRecord(day: day.day, totals: day.totals, goals: settings.goals, moveMode: settings.moveMode)
            }
            return Outcome(summaries: summaries, sampleCount: samples.count)
        }
    }

    /// The sample types a summary is computed from (`samples`): a deletion of one of them is a
    /// deletion a summary's reader may lose data to (the broker's `StreamVisibility`).
    public static let sampleTypes = [
        HKQuantityTypeIdentifier.activeEnergyBurned.rawValue, HKQuantityTypeIdentifier.appleExerciseTime.rawValue,
        HKQuantityTypeIdentifier.appleMoveTime.rawValue, HKWorkoutTypeIdentifier, HKCategoryTypeIdentifier.appleStandHour.rawValue,
    ]

    /// The rows of the summary's types that overlap `window` and that `scope` admits, committed
    /// by change number `through` (nil: all the read sees).
    static func samples(_ db: Database, window: TimeSpan, scope: Visibility, through: Int64? = nil) throws -> ActivitySamples {
        let overlapping = SamplePredicate.dateRange(start: Date(microsecondsSince1970: window.start),
                                                    end: Date(microsecondsSince1970: window.end),
                                                    strictStart: false, strictEnd: false)
        func quantities(_ type: HKQuantityTypeIdentifier) throws -> [SourceSamples] {
            try StatisticsRepository.samples(db, typeIdentifier: type.rawValue, predicate: overlapping, scope: scope, through: through)
        }
        var samples = ActivitySamples(activeEnergy: try quantities(.activeEnergyBurned),
                                      exerciseTime: try quantities(.appleExerciseTime),
                                      moveTime: try quantities(.appleMoveTime))
        samples.workouts = try rows(db, type: HKWorkoutTypeIdentifier, column: "o.end_us", window: overlapping, scope: scope, through: through)
            .map { row throws(HKError) in try TimeSpan(checkedStart: row[0], end: row[1]) }
        samples.standHours = try rows(db, type: HKCategoryTypeIdentifier.appleStandHour.rawValue, column: "o.category",
                                      window: overlapping, scope: scope, through: through)
            .map { StandHourSample(start: $0[0], stood: $0[1] == HKCategoryValueAppleStandHour.stood.rawValue) }
        return samples
    }

    /// `start_us` and `column` of the visible objects of `type` in the window.
    private static func rows(_ db: Database, type: String, column: String, window: SamplePredicate,
                             scope visibility: Visibility, through: Int64?) throws -> [Row] {
        let visible = SampleSQL.visibility(visibility.scope)
        let range = try SampleSQL.condition(window, of: type, within: visibility.bounded(through: through), db)
        let committed = through == nil ? "" : "AND o.change_seq <= ?"
        return try Row.fetchAll(db, sql: """
            SELECT o.start_us, \(column) FROM objects o
            WHERE o.type_id = ? AND \(visible.sql) AND \(range.sql) \(committed)
            ORDER BY o.start_us, o.id
            """, arguments: [try SampleSQL.typeID(db, type)] + visible.arguments + range.arguments + (through.map { [$0] } ?? []))
    }

    /// The user's goals and move mode as `scope` shows them on `day`. They are the user's own
    /// data, so the question is the one every read asks: does the scope admit the user's source
    /// at that time (the day's midnight)? Without read permission it never does, and the day
    /// shows `.hidden` — the same as a user who set nothing; a windowed grant shows them for the
    /// days inside its window. `u` is always one row: before the user set anything their
    /// source has no id yet, and NULL matches no app's own scope.
    static func settings(_ db: Database, on day: CalendarDay, startingAt midnight: Int64, scope: ReadScope) throws -> ActivityDaySettings {
        let visible = SampleSQL.visibility(scope, alias: "u", table: .other)
        let row = try Row.fetchOne(db, sql: """
            SELECT (SELECT c.enum_value FROM characteristics c WHERE c.type_identifier = ?),
                   g.move_kcal, g.exercise_min, g.stand_hours, g.move_time_min
            FROM (SELECT ? AS start_us, (SELECT id FROM sources WHERE bundle_identifier = ?) AS source_id) u
            LEFT JOIN activity_goals g
                ON g.effective_from = (SELECT max(effective_from) FROM activity_goals WHERE effective_from <= ?)
            WHERE \(visible.sql)
            """, arguments: [HKCharacteristicTypeIdentifier.activityMoveMode.rawValue, midnight,
                             CharacteristicRepository.userSource.bundleIdentifier, day.description] + visible.arguments)
        guard let row else { return .hidden }
        let moveMode = (row[0] as Int?).flatMap(HKActivityMoveMode.init(rawValue:)) ?? .activeEnergy
        let goals = (row[1] as Double?) == nil ? ActivityGoals.none : ActivityGoalRepository.goals(row, from: 1)
        return ActivityDaySettings(goals: goals, moveMode: moveMode)
    }
}

extension HealthDatabase {
    public var activitySummaries: ActivitySummaryRepository { ActivitySummaryRepository(writer: writer) }
}
