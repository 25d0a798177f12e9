import GRDB
import HealthModel

extension WorkoutEffortRelationSQL {
    /// Whether a workout effort relation of a `typeIdentifier` sample changed after change number
    /// `change` in a way the reader may see: related, unrelated, its sample deleted, or gone with
    /// its workout — the sample within `visibility.scope` (tested on the columns each relation,
    /// removal and departure keeps) and the workout within `visibility.workouts` (for a departure,
    /// as it was). A new relation counts only if its sample matches `predicate` (which is how
    /// `predicateForWorkoutEffortSamplesRelated` learns of it); a removal, like a deletion, is
    /// counted whatever the predicate. What an observer or a background launch of an effort type
    /// asks besides its objects (`ChangeFeedRepository.hasChanges`); a hidden relation answers
    /// false, as in a store where it was never made.
    static func anyVisibleChange(_ db: Database, typeIdentifier: String, predicate: SamplePredicate?, visibility: Visibility,
                                 after change: Int64) throws -> Bool {
        guard WorkoutEffortRules.effortTypes.contains(typeIdentifier) else { return false }
        let typeID = try SampleSQL.typeID(db, typeIdentifier)
        let related = SampleSQL.visibility(visibility.scope, alias: "r", table: .other)
        let removed = SampleSQL.visibility(visibility.scope, alias: "m", table: .other)
        let workout = SampleSQL.visibility(visibility.workouts, alias: "w")
        let departedWorkout = SampleSQL.visibility(visibility.workouts, alias: "w", table: .other)
        var relatedArguments: StatementArguments = [change, typeID]
        relatedArguments += related.arguments
        relatedArguments += workout.arguments
        var goneArguments: StatementArguments = [change, typeID]
        goneArguments += removed.arguments
        goneArguments += workout.arguments
        goneArguments += [change, typeID]
        goneArguments += removed.arguments
        goneArguments += departedWorkout.arguments
        // Each walks the relations, removals or departures changed after `change` (`…_by_change`),
        // as the relationship query's anchor does, and drops the hidden ones by their own columns.
        let relations = """
            FROM workout_effort_relations r JOIN objects o ON o.id = r.sample_id JOIN objects w ON w.id = r.workout_id
            WHERE r.change_seq > ? AND r.type_id = ? AND \(related.sql) AND \(workout.sql)
            """
        let gone = """
            EXISTS (SELECT 1 FROM workout_effort_removals m JOIN objects w ON w.id = m.workout_id
                    WHERE m.change_seq > ? AND m.type_id = ? AND \(removed.sql) AND \(workout.sql))
                OR EXISTS (SELECT 1 FROM workout_effort_departed m
                           JOIN workout_effort_departed_workouts w ON w.workout_uuid = m.workout_uuid
                           WHERE m.change_seq > ? AND m.type_id = ? AND \(removed.sql) AND \(departedWorkout.sql))
            """
        // The walks are the scope's, over relations the reader may not see: no CPU stop there; the
        // app's predicate over the samples the scope admitted is the call's (`ScopedCandidates`).
        guard let predicate else {
            return try StatementBudget.overScope {
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 \(relations)) OR \(gone)",
                                  arguments: relatedArguments + goneArguments) ?? false
            }
        }
        let matching = try SampleSQL.condition(predicate, of: typeIdentifier, within: visibility)
        if try StatementBudget.overScope({ try Bool.fetchOne(db, sql: "SELECT \(gone)", arguments: goneArguments) ?? false }) {
            return true
        }
        return try ScopedCandidates.anyMatches(db, candidates: ("SELECT o.id \(relations)", relatedArguments), condition: matching)
    }
}
