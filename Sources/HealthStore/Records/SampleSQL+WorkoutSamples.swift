import Foundation
import GRDB

extension SampleSQL {
    /// `predicateForObjects(from: workout)` on objects `o` of `typeIdentifier`: the samples
    /// associated with the workout `uuid`, as a condition whose cost follows only rows the reader
    /// may see (DESIGN.md §7.3).
    ///
    /// Until session 23 it was `o.id IN (SELECT a.sample_id FROM workout_associations a …)` for
    /// every scope: SQLite read every association of the workout and looked each sample up before
    /// its type and scope were tested, so a reader that may see the workout timed how many samples
    /// of types (or sources) it may not read were associated with it (redteam23, F2: 44 ms
    /// against 1 ms for 100,000 hidden heart rates; the answers were the same bytes). Now:
    /// - a reader of every source's rows of the type reads only that type's associations, by the
    ///   (workout, sample type) index (v72; named, since without statistics SQLite preferred the
    ///   primary key's (workout) range, every type's associations): every row reached is one it
    ///   may see;
    /// - any narrower scope tests the predicate per visible row, correlated by the row's key
    ///   (`workout_associations_by_sample`), as the effort and correlation predicates do.
    ///
    /// The workout is looked up within the reader's workout scope: one it cannot see names
    /// nothing, so it matches what it would if that workout did not exist. A reading after the
    /// answer's first sees the workout and its associations as the first did
    /// (`Visibility.through`): one made since names nothing more.
    static func workoutSamples(_ uuid: UUID, of typeID: Int64,
                               within visibility: Visibility) -> (sql: String, arguments: StatementArguments) {
        let workoutVisible = SampleSQL.visibility(visibility.workouts, alias: "w")
        let committed = committedBy(visibility.through, aliases: ["a", "w"])
        if case .allSources = visibility.scope {
            var arguments: StatementArguments = [typeID, uuid]
            arguments += workoutVisible.arguments
            arguments += committed.arguments
            return ("""
                o.id IN (SELECT a.sample_id FROM objects w JOIN workout_associations a INDEXED BY workout_associations_by_type \
                ON a.workout_id = w.id \
                AND a.sample_type_id = ? \
                WHERE w.uuid = ? AND \(workoutVisible.sql)\(committed.sql))
                """, arguments)
        }
        var arguments: StatementArguments = [uuid]
        arguments += workoutVisible.arguments
        arguments += committed.arguments
        return ("""
            EXISTS (SELECT 1 FROM workout_associations a JOIN objects w ON w.id = a.workout_id \
            WHERE a.sample_id = o.id AND w.uuid = ? AND \(workoutVisible.sql)\(committed.sql))
            """, arguments)
    }
}
