import GRDB
import HealthModel

extension WorkoutEffortRelationSQL {
    /// Whether a workout effort relation of a `typeIdentifier` sample changed after change number
    /// `change` in a way the reader may see: related, unrelated, its sample deleted, or gone with
    /// its workout — the sample within `visibility.scope` and the workout within
    /// `visibility.workouts` (for a departure, as it was), both tested on the columns each
    /// relation, removal and departure keeps. A new relation counts only if its sample matches
    /// `predicate` (which is how `predicateForWorkoutEffortSamplesRelated` learns of it); a
    /// removal, like a deletion, is
    /// counted whatever the predicate. What an observer or a background launch of an effort type
    /// asks besides its objects (`ChangeFeedRepository.hasChanges`); a hidden relation answers
    /// false, as in a store where it was never made.
    static func anyVisibleChange(_ db: Database, typeIdentifier: String, predicate: SamplePredicate?, visibility: Visibility,
                                 after change: Int64) throws -> Bool {
        guard WorkoutEffortRules.effortTypes.contains(typeIdentifier) else { return false }
        let typeID = try SampleSQL.typeID(db, typeIdentifier)
        // Each walk visits only the relations, removals or departures both scopes admit — the
        // sample's and the workout's, tested on the columns each row keeps (`laterChanges`, v70):
        // no workout is looked up, and a hidden workout's relations are not visited.
        func walks(_ table: RelationChangeTable, alias: String) -> [RelationWalk] {
            laterChanges(samples: visibility.scope, workouts: visibility.workouts, table: table, alias: alias, typeID: typeID,
                         after: change)
        }
        var related: [String] = []
        var relatedArguments = StatementArguments()
        for walk in walks(.relations, alias: "r") {
            related.append("FROM \(walk.from) WHERE \(walk.condition)")
            relatedArguments += walk.arguments
        }
        var gone: [String] = []
        var goneArguments = StatementArguments()
        for walk in walks(.removals, alias: "m") + walks(.departed, alias: "m") {
            gone.append("EXISTS (SELECT 1 FROM \(walk.from) WHERE \(walk.condition))")
            goneArguments += walk.arguments
        }
        let anyGone = "(" + gone.joined(separator: " OR ") + ")"
        // The walks are the scopes': no CPU stop there; the app's predicate over the samples the
        // scopes admitted is the call's (`ScopedCandidates`).
        guard let predicate else {
            return try StatementBudget.overScope {
                try Bool.fetchOne(db, sql: "SELECT " + related.map { "EXISTS (SELECT 1 \($0))" }.joined(separator: " OR ") + " OR \(anyGone)",
                                  arguments: relatedArguments + goneArguments) ?? false
            }
        }
        let matching = try SampleSQL.condition(predicate, of: typeIdentifier, within: visibility, db)
        if try StatementBudget.overScope({ try Bool.fetchOne(db, sql: "SELECT \(anyGone)", arguments: goneArguments) ?? false }) {
            return true
        }
        let candidates = related.map { "SELECT r.sample_id \($0)" }.joined(separator: " UNION ")
        return try ScopedCandidates.anyMatches(db, candidates: (candidates, relatedArguments), condition: matching)
    }
}
