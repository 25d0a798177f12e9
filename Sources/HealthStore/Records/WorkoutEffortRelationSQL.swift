import Foundation
import GRDB
import HealthModel

/// The SQL of one read of workout effort relations (`SampleRepository.workoutEffortRelations`):
/// the workouts (within the reader's workout visibility, matching the predicate), the related
/// samples (each effort type under the reader's scope for it — the same choke point every read
/// uses, `SampleSQL.visibility`), and, after an anchor, the relations that changed visibly.
///
/// A relation changed visibly after change number N when a sample the reader can see was related
/// after N (`workout_effort_relations.change_seq`), or one it could see was unrelated or deleted
/// after N (`workout_effort_removals`, which keeps the sample's type, source and start for the
/// same scope test). A change to a sample the reader cannot see selects nothing, so no answer,
/// count or anchor depends on it.
///
/// `through` (a stream's later reading, `ReadSnapshot`): only relations, removals and departures
/// committed by that change number. A relation is made after its workout and its sample, so its
/// own number bounds all three.
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

    init(_ db: Database, predicate: SamplePredicate?, workouts: Visibility, samples: [String: ReadScope], after: Int64?,
         through: Int64? = nil) throws {
        // The bound on a table's `change_seq`, beside its other terms; none for a first reading.
        func committed(_ alias: String) -> (sql: String, arguments: StatementArguments) {
            through.map { ("AND \(alias).change_seq <= ?", [$0]) } ?? ("", [])
        }
        let workoutVisible = SampleSQL.visibility(workouts.scope, alias: "o")
        let matching: (sql: String, arguments: StatementArguments) =
            try predicate.map { try SampleSQL.condition($0, of: HKWorkoutTypeIdentifier, within: workouts) } ?? ("1", [])
        let workoutCondition = "o.type_id = ? AND \(workoutVisible.sql) AND (\(matching.sql))"
        var workoutArguments: StatementArguments = [try SampleSQL.typeID(db, HKWorkoutTypeIdentifier)]
        workoutArguments += workoutVisible.arguments
        workoutArguments += matching.arguments
        let sampleTerms = try Self.scopeTerms(db, samples, alias: "s", table: .objects)

        var changed = ""
        var changedCTEArguments = StatementArguments()
        var onlyChanged = ""
        if let after {
            let removalTerms = try Self.scopeTerms(db, samples, alias: "m", table: .other)
            changed = """
                WITH changed(workout_id, activity_position) AS (
                    SELECT r.workout_id, r.activity_position FROM workout_effort_relations r JOIN objects s ON s.id = r.sample_id
                    WHERE r.change_seq > ? \(committed("r").sql) AND (\(sampleTerms.sql))
                    UNION
                    SELECT m.workout_id, m.activity_position FROM workout_effort_removals m
                    WHERE m.change_seq > ? \(committed("m").sql) AND (\(removalTerms.sql)))
                """
            changedCTEArguments = [after]
            changedCTEArguments += committed("r").arguments
            changedCTEArguments += sampleTerms.arguments
            changedCTEArguments += [after]
            changedCTEArguments += committed("m").arguments
            changedCTEArguments += removalTerms.arguments
            onlyChanged = "AND (r.workout_id, r.activity_position) IN (SELECT workout_id, activity_position FROM changed)"
        }
        relatedSamplesSQL = """
            \(changed)
            SELECT o.uuid AS workout_uuid, a.uuid AS activity_uuid, s.uuid AS sample_uuid,
                   t.identifier AS sample_type, s.start_us, s.end_us, s.id AS sample_id
            FROM objects o
            JOIN workout_effort_relations r ON r.workout_id = o.id
            JOIN objects s ON s.id = r.sample_id
            JOIN sample_types t ON t.id = s.type_id
            LEFT JOIN workout_activities a ON a.workout_id = r.workout_id AND a.position = r.activity_position
            WHERE \(workoutCondition) \(committed("r").sql) AND (\(sampleTerms.sql)) \(onlyChanged)
            ORDER BY o.start_us, o.id, r.activity_position, s.start_us, s.id
            """
        var arguments = changedCTEArguments
        arguments += workoutArguments
        arguments += committed("r").arguments
        arguments += sampleTerms.arguments
        relatedSamplesArguments = arguments
        if after != nil {
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
            // the reader's workout scope as it was, the sample within its type's. The predicate
            // cannot be asked of a workout that is gone: every reader who could see the relation
            // is told, whatever its predicate.
            let departedTerms = try Self.scopeTerms(db, samples, alias: "m", table: .other)
            let departedWorkout = SampleSQL.visibility(workouts.scope, alias: "w", table: .other)
            departedSQL = """
                SELECT DISTINCT m.workout_uuid, m.activity_uuid, w.start_us
                FROM workout_effort_departed m
                JOIN workout_effort_departed_workouts w ON w.workout_uuid = m.workout_uuid
                WHERE m.change_seq > ? \(committed("m").sql) AND (\(departedTerms.sql)) AND \(departedWorkout.sql)
                ORDER BY w.start_us, m.workout_uuid, m.activity_uuid
                """
            var departedArguments: StatementArguments = [after]
            departedArguments += committed("m").arguments
            departedArguments += departedTerms.arguments
            departedArguments += departedWorkout.arguments
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

    /// One term per effort type: the type's id bound, then the row confined to the reader's
    /// scope for that type. A type missing from `samples` shows nothing (no source has an empty
    /// identifier).
    private static func scopeTerms(_ db: Database, _ samples: [String: ReadScope], alias: String,
                                   table: ScopedTable) throws -> (sql: String, arguments: StatementArguments) {
        var terms: [String] = []
        var arguments = StatementArguments()
        for type in WorkoutEffortRules.effortTypes {
            let visible = SampleSQL.visibility(samples[type] ?? .ownSamples(appID: ""), alias: alias, table: table)
            terms.append("(\(alias).type_id = ? AND \(visible.sql))")
            arguments += [try SampleSQL.typeID(db, type)]
            arguments += visible.arguments
        }
        return (terms.joined(separator: " OR "), arguments)
    }
}
