import Foundation
import GRDB
import HealthModel

/// The SQL of one read of workout effort relations (`SampleRepository.workoutEffortRelations`):
/// the workouts (within the reader's workout visibility, matching the predicate), the related
/// samples (each effort type under the reader's scope for it — the same choke point every read
/// uses, `SampleSQL.visibility`), and, after an anchor, the relations that changed visibly.
///
/// The scope is tested on the relation row itself, before any sample is looked up: a relation
/// keeps its sample's type, source and start (v60), and each effort type is read in an arm of its
/// own whose index range — (workout, type, source) or (workout, type) — holds only what that
/// type's scope admits (`workout_effort_relations_by_source`, fixed planner statistics in v60).
/// So the read's cost follows the visible relations of the visible workouts, not the hidden
/// scores on them (`VisibleRowsPlanTests.workoutEffortRelationsAreBoundedByVisibleRows`). The
/// workouts are found once per arm, each time within their own (type, …) range.
///
/// A relation changed visibly after change number N when a sample the reader can see was related
/// after N (`workout_effort_relations.change_seq`), or one it could see was unrelated or deleted
/// after N (`workout_effort_removals`, which keeps the sample's type, source and start for the
/// same scope test). A change to a sample the reader cannot see selects nothing, so no answer,
/// count or anchor depends on it; nor is it visited, nor a change of a relation to a workout the
/// reader cannot see: the changes are walked by the ranges each type's scope and the workout
/// scope name together (`laterChanges`, v69, v70), not by change number alone.
///
/// `through` (a stream's later reading, `ReadSnapshot`): the relations as they were at that change
/// number — those made by then and still there, and those made by then and unrelated since (a
/// removal keeps the sample it unrelated and when it had been related, v60) — and only the
/// changes, removals and departures committed by then. What left the store since is gone from
/// the reading, as from any other answer's second reading; what the reader unrelated is not, for
/// an unrelate moves no `VisibilityEpoch` and so the twin that did not read again sent it.
struct WorkoutEffortRelationSQL {
    /// A relation as the reader knows it: the workout, and the activity (nil: the workout itself).
    struct Key: Hashable {
        let workout: UUID
        let activity: UUID?
    }

    let relatedSamplesSQL: String
    let relatedSamplesArguments: StatementArguments
    private let changedSQL: String?
    private let changedArguments: StatementArguments
    private let departedSQL: String?
    private let departedArguments: StatementArguments

    /// Where an arm reads relations from: the relations stored now (within `through`, if any), or
    /// — a later reading — those unrelated after `through` that existed at it.
    private enum RelationRows {
        case stored
        case unrelatedSince

        var table: String {
            switch self {
            case .stored: "workout_effort_relations"
            case .unrelatedSince: "workout_effort_removals"
            }
        }
    }

    init(_ db: Database, predicate: SamplePredicate?, workouts: Visibility, samples: [String: ReadScope], after: Int64?,
         through: Int64? = nil) throws {
        let workoutVisible = SampleSQL.visibility(workouts.scope, alias: "o")
        let matching: (sql: String, arguments: StatementArguments) =
            try predicate.map { try SampleSQL.condition($0, of: HKWorkoutTypeIdentifier, within: workouts, db) } ?? ("1", [])
        let workoutCondition = "o.type_id = ? AND \(workoutVisible.sql) AND (\(matching.sql))"
        var workoutArguments: StatementArguments = [try SampleSQL.typeID(db, HKWorkoutTypeIdentifier)]
        workoutArguments += workoutVisible.arguments
        workoutArguments += matching.arguments

        var changed = ""
        var changedCTEArguments = StatementArguments()
        var onlyChanged = ""
        if let after {
            // Each effort type's walks under its scope and the workout scope (`laterChanges`):
            // only relations and removals both admit are visited (v70), so the workouts the CTE
            // names are visible ones, and the reading below tests them again only for the predicate.
            var walks: [String] = []
            for walk in try Self.laterChanges(db, samples, workouts: workouts.scope, table: .relations, alias: "r", after: after,
                                              through: through) {
                walks.append("SELECT r.workout_id, r.activity_position FROM \(walk.from) WHERE \(walk.condition)")
                changedCTEArguments += walk.arguments
            }
            // A later reading also counts a relation made in (after, through] and unrelated since:
            // it was a change of that stretch, and the first reading answered it.
            let removed: (sql: String, arguments: StatementArguments) = through.map {
                ("AND (m.change_seq <= ? OR (m.related_seq > ? AND m.related_seq <= ?))", [$0, after, $0])
            } ?? ("", [])
            for walk in try Self.laterChanges(db, samples, workouts: workouts.scope, table: .removals, alias: "m", after: after) {
                walks.append("SELECT m.workout_id, m.activity_position FROM \(walk.from) WHERE \(walk.condition) \(removed.sql)")
                changedCTEArguments += walk.arguments
                changedCTEArguments += removed.arguments
            }
            changed = """
                WITH changed(workout_id, activity_position) AS (
                    \(walks.joined(separator: "\nUNION\n")))
                """
            onlyChanged = "AND (r.workout_id, r.activity_position) IN (SELECT workout_id, activity_position FROM changed)"
        }

        // One arm per effort type, and in a later reading per kind of row.
        var arms: [String] = []
        var arguments = changedCTEArguments
        for rows in through == nil ? [RelationRows.stored] : [.stored, .unrelatedSince] {
            let bound: (sql: String, arguments: StatementArguments)
            switch (rows, through) {
            case let (.stored, through?): bound = ("AND r.change_seq <= ?", [through])
            case let (.unrelatedSince, through?):
                bound = ("AND r.sample_id IS NOT NULL AND r.related_seq <= ? AND r.change_seq > ?", [through, through])
            default: bound = ("", [])
            }
            for type in WorkoutEffortRules.effortTypes {
                let visible = SampleSQL.visibility(samples[type] ?? .ownSamples(appID: ""), alias: "r", table: .other)
                // CROSS JOIN: the workouts first, then each one's relations by (workout, type, …).
                arms.append("""
                    SELECT o.uuid AS workout_uuid, a.uuid AS activity_uuid, s.uuid AS sample_uuid,
                           t.identifier AS sample_type, s.start_us AS start_us, s.end_us AS end_us, s.id AS sample_id,
                           o.start_us AS workout_start, o.id AS workout_row, r.activity_position AS activity_position
                    FROM objects o
                    CROSS JOIN \(rows.table) r ON r.workout_id = o.id
                    JOIN objects s ON s.id = r.sample_id
                    JOIN sample_types t ON t.id = s.type_id
                    LEFT JOIN workout_activities a ON a.workout_id = r.workout_id AND a.position = r.activity_position
                    WHERE \(workoutCondition) AND r.type_id = ? AND \(visible.sql) \(bound.sql) \(onlyChanged)
                    """)
                arguments += workoutArguments
                arguments += [try SampleSQL.typeID(db, type)]
                arguments += visible.arguments
                arguments += bound.arguments
            }
        }
        relatedSamplesSQL = """
            \(changed)
            \(arms.joined(separator: "\nUNION ALL\n"))
            ORDER BY workout_start, workout_row, activity_position, start_us, sample_id
            """
        relatedSamplesArguments = arguments
        if let after {
            changedSQL = """
                \(changed)
                SELECT o.uuid AS workout_uuid, a.uuid AS activity_uuid
                FROM changed c
                JOIN objects o ON o.id = c.workout_id
                LEFT JOIN workout_activities a ON a.workout_id = c.workout_id AND a.position = c.activity_position
                WHERE \(workoutCondition)
                ORDER BY o.start_us, o.id, c.activity_position
                """
            var changedArguments = changedCTEArguments
            changedArguments += workoutArguments
            self.changedArguments = changedArguments
            // Relations that left with their workout after the anchor (v39): the workout within
            // the reader's workout scope as it was, the sample within its type's, both on the
            // departure's own columns (v70). The predicate cannot be asked of a workout that is
            // gone: every reader who could see the relation is told, whatever its predicate.
            var departed: [String] = []
            var departedArguments = StatementArguments()
            for walk in try Self.laterChanges(db, samples, workouts: workouts.scope, table: .departed, alias: "m", after: after,
                                              through: through) {
                departed.append("""
                    SELECT m.workout_uuid AS workout_uuid, m.activity_uuid AS activity_uuid, m.workout_start_us AS start_us
                    FROM \(walk.from) WHERE \(walk.condition)
                    """)
                departedArguments += walk.arguments
            }
            // UNION: a relation found by two walks (a window's own in-window rows) once.
            departedSQL = departed.joined(separator: "\nUNION\n") + "\nORDER BY start_us, workout_uuid, activity_uuid"
            self.departedArguments = departedArguments
        } else {
            changedSQL = nil
            changedArguments = []
            departedSQL = nil
            departedArguments = []
        }
    }

    /// The relations that changed visibly after the anchor, in answer order (none without one).
    /// More than `maximum` fail with errorInvalidArgument, as too many related samples do.
    func changedRelations(_ db: Database, maximum: Int) throws -> [Key] {
        guard let changedSQL else { return [] }
        let rows = try Row.fetchCursor(db, sql: changedSQL, arguments: changedArguments)
        var keys: [Key] = []
        while let row = try rows.next() {
            guard keys.count < maximum else {
                throw HKError(.errorInvalidArgument,
                              "more than \(maximum) workout effort relationships changed; narrow the predicate to fewer workouts")
            }
            keys.append(Key(workout: row["workout_uuid"], activity: row["activity_uuid"]))
        }
        guard let departedSQL else { return keys }
        let departed = try Row.fetchCursor(db, sql: departedSQL, arguments: departedArguments)
        while let row = try departed.next() {
            guard keys.count < maximum else {
                throw HKError(.errorInvalidArgument,
                              "more than \(maximum) workout effort relationships changed; narrow the predicate to fewer workouts")
            }
            keys.append(Key(workout: row["workout_uuid"], activity: row["activity_uuid"]))
        }
        return keys
    }
}
