public import Foundation
import GRDB
public import HealthModel

/// The reader's scope for each quantity type a workout's totals and statistics are derived
/// from (`WorkoutValueTypes`), and the one rule that applies it: a total or statistic of type T
/// on a workout row is visible exactly where the reader's scope for T would admit a sample of
/// T with the workout's source and start. Elsewhere it is absent — a nil total, no statistics
/// entry — so a reader allowed workouts but not active energy sees another app's workout as
/// if that app had saved it without energy (DESIGN.md §7.3), while its own workouts and
/// every workout its scope for T admits keep their values.
///
/// Applied in two places, both here: to each decoded workout (`redacted`, called only by
/// `SampleRowDecoder`) and to every workout-value predicate and sort (`visibleSQL`, used by
/// `SampleSQL.workoutCondition` and by the workout sort keys), so what a reader can match or
/// order by is what it can read.
public struct WorkoutValueScopes: Sendable, Equatable {
    /// Scopes of the quantity types resolved one by one (those the reader holds a read grant for).
    private var byType: [String: ReadScope]
    /// The scope of every other quantity type; nil: none of their values are visible, even on
    /// the reader's own workouts (`hidingAll`).
    private var others: ReadScope?

    /// `others` for every type not in `byType`.
    public init(byType: [String: ReadScope] = [:], others: ReadScope) {
        self.byType = byType
        self.others = others
    }

    private init(hidingAll: Void) {
        byType = [:]
        others = nil
    }

    /// Hides every workout value: for statements that cannot return workouts (correlation members).
    public static let hidingAll = WorkoutValueScopes(hidingAll: ())

    /// The narrowest for a reader whose queried scope is `scope`: its own workouts' values only,
    /// or everything for the user's own manager (`.allSources`).
    public static func ownValues(for scope: ReadScope) -> WorkoutValueScopes {
        guard let appID = scope.appID else { return WorkoutValueScopes(others: .allSources) }
        return WorkoutValueScopes(others: .ownSamples(appID: appID))
    }

    /// The reader's scope for `type`; nil when none of its values are visible.
    public func scope(of type: String) -> ReadScope? { byType[type] ?? others }

    /// The same scopes with every window's start taken away (`Visibility.clockFree`).
    public var clockFree: WorkoutValueScopes {
        var copy = self
        copy.byType = byType.mapValues(\.clockFree)
        copy.others = others?.clockFree
        return copy
    }

    // MARK: - Rows

    /// `workout` (of a row saved by the source `bundleIdentifier`, starting at `startUS`) with
    /// every total and statistic the reader may not see removed.
    func redacted(_ workout: WorkoutValue, bundleIdentifier: String, startUS: Int64) -> WorkoutValue {
        let visible = { (types: [String]) in types.allSatisfy { admits($0, bundleIdentifier: bundleIdentifier, startUS: startUS) } }
        let totals = { (total: WorkoutTotal) in visible(WorkoutValueTypes.types(of: total, workout: workout)) }
        var redacted = workout
        if !totals(.energyBurned) { redacted.totalEnergyBurned = nil }
        if !totals(.distance) { redacted.totalDistance = nil }
        if !totals(.swimmingStrokeCount) { redacted.totalSwimmingStrokeCount = nil }
        if !totals(.flightsClimbed) { redacted.totalFlightsClimbed = nil }
        redacted.statistics.removeAll { !visible([$0.quantityType]) }
        for index in redacted.activities.indices {
            redacted.activities[index].statistics.removeAll { !visible([$0.quantityType]) }
        }
        return redacted
    }

    /// `SampleSQL.visibility`'s rule for one row, in Swift: the two must agree (a per-object
    /// grant names objects of its own type, never a workout, so it admits own rows only).
    private func admits(_ type: String, bundleIdentifier: String, startUS: Int64) -> Bool {
        switch scope(of: type) {
        case nil: false
        case .allSources: true
        case let .ownSamples(appID), let .ownAndGrantedObjects(appID): bundleIdentifier == appID
        case let .recentWindow(appID, since): bundleIdentifier == appID || startUS >= since.microsecondsSince1970
        }
    }

    // MARK: - SQL

    /// A condition, over the workout's `objects` row `alias`, that holds exactly where the
    /// reader may see a value derived from every one of `types` (no types: always). Never
    /// NULL, so NOT of a condition that includes it is "the value is absent or fails".
    func visibleSQL(_ types: [String], alias: String = "o") -> (sql: String, arguments: StatementArguments) {
        var parts: [String] = []
        var arguments = StatementArguments()
        for type in types {
            guard let scope = scope(of: type) else { return ("0", []) }
            let visible = SampleSQL.visibility(scope, alias: alias, table: .other)
            if visible.sql == "1" { continue }
            parts.append("COALESCE((\(visible.sql)), 0)")
            arguments += visible.arguments
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
    }

    /// `visibleSQL` for a workout total: the distance's types depend on the row's activity
    /// type, `activityColumn` (of the `workouts` row of `alias`), and on the activity type of
    /// every activity the workout holds (`WorkoutValueTypes.types(of:workout:)`, the rule
    /// `redacted` applies): a multisport workout's distance sums its legs'. The activities are
    /// found by the workout's key (`workout_activities`' primary key starts with it), so only
    /// the visible row's own activities are looked at.
    func visibleSQL(_ total: WorkoutTotal, activityColumn: String, alias: String = "o") -> (sql: String, arguments: StatementArguments) {
        guard total == .distance else { return visibleSQL(WorkoutValueTypes.types(of: total, activityType: 0), alias: alias) }
        let workout = distanceVisibleSQL(activityColumn: activityColumn, alias: alias)
        let leg = distanceVisibleSQL(activityColumn: "wd.activity_type", alias: alias)
        // Every distance type visible (the user's manager, a reader of all of them): no activity can hide it.
        guard leg.sql != "1" else { return workout }
        return ("(\(workout.sql) AND NOT EXISTS (SELECT 1 FROM workout_activities wd WHERE wd.workout_id = \(alias).id AND NOT \(leg.sql)))",
                workout.arguments + leg.arguments)
    }

    /// Whether the reader may see a distance measured in the distance type(s) of the activity
    /// type in `activityColumn`; "1" when it may see every distance type.
    private func distanceVisibleSQL(activityColumn: String, alias: String) -> (sql: String, arguments: StatementArguments) {
        var cases = ""
        var arguments = StatementArguments()
        var everyGroupVisible = true
        for group in WorkoutValueTypes.distanceGroups {
            let visible = visibleSQL(group.types, alias: alias)
            everyGroupVisible = everyGroupVisible && visible.sql == "1"
            cases += " WHEN \(activityColumn) IN (\(group.activities.map(String.init).joined(separator: ","))) THEN \(visible.sql)"
            arguments += visible.arguments
        }
        let others = visibleSQL(WorkoutValueTypes.otherDistanceTypes, alias: alias)
        if everyGroupVisible && others.sql == "1" { return ("1", []) }
        arguments += others.arguments
        return ("(CASE\(cases) ELSE \(others.sql) END)", arguments)
    }
}

extension ReadScope {
    /// The reader's app; nil for `.allSources` (the user's own manager).
    var appID: String? {
        switch self {
        case .allSources: nil
        case let .ownSamples(appID), let .recentWindow(appID, _), let .ownAndGrantedObjects(appID): appID
        }
    }
}
