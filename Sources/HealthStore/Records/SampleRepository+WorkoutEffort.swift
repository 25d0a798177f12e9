public import Foundation
import GRDB
public import HealthModel

/// Workout effort relations (iOS 18): writing them for an app, and reading them under a reader's
/// scopes. The rules (SECURITY.md "Workout effort relations"):
/// - an app relates only an effort sample it saved itself, to a workout it can read; another
///   app's sample, a hidden workout and a UUID that does not exist fail alike, so the call
///   reveals nothing about data the app cannot see;
/// - a reader sees a relation only where it can read both sides: the workout under its workout
///   scope and each sample under its own type's scope. A relation whose samples are all hidden
///   is absent, exactly as if it had never been made.
extension SampleRepository {
    /// Relates (or, `relate` false, unrelates) `appID`'s effort sample `change.sampleUUID` with
    /// the workout `change.workoutUUID` — or one activity of it — durably. Relating twice and
    /// unrelating a relation that does not exist change nothing and succeed. `workouts`: the
    /// app's read scope for HKWorkoutType (the workout must be visible in it).
    public func changeWorkoutEffortRelation(sample sampleUUID: UUID, workout workoutUUID: UUID, activity activityUUID: UUID?,
                                            appID: String, workouts: ReadScope, relate: Bool) async throws {
        try await commits.submit(returning: { db in
            let ids = try Self.effortRelationKeys(sample: sampleUUID, workout: workoutUUID, activity: activityUUID,
                                                  appID: appID, workouts: workouts, db)
            let sql = relate
                ? "INSERT OR IGNORE INTO workout_effort_relations (workout_id, activity_position, sample_id) VALUES (?, ?, ?)"
                : "DELETE FROM workout_effort_relations WHERE workout_id = ? AND activity_position = ? AND sample_id = ?"
            try db.execute(sql: sql, arguments: [ids.workout, ids.activityPosition, ids.sample])
        })
    }

    /// The type of `appID`'s own object `uuid`, or nil (another app's, or none): what the broker
    /// checks share permission for before relating.
    public func ownObjectType(_ uuid: UUID, appID: String) throws -> String? {
        try writer.read { db in try OwnedObjects.row(db, uuid: uuid, appID: appID)?.typeIdentifier }
    }

    /// The row keys of one relation, each side looked up under its rule.
    private static func effortRelationKeys(sample sampleUUID: UUID, workout workoutUUID: UUID, activity activityUUID: UUID?,
                                           appID: String, workouts: ReadScope,
                                           _ db: Database) throws -> (workout: Int64, activityPosition: Int64, sample: Int64) {
        guard let sample = try OwnedObjects.row(db, uuid: sampleUUID, appID: appID) else {
            throw HKError(.errorInvalidArgument, "the sample was not found among the samples this app saved")
        }
        try WorkoutEffortRules.checkEffortType(sample.typeIdentifier)
        // The workout within the app's workout scope: a hidden workout and a missing one give
        // the same nil from the same indexed lookup, and so the same error.
        let visible = SampleSQL.visibility(workouts, alias: "o")
        guard let workoutID = try Int64.fetchOne(db, sql: """
            SELECT o.id FROM objects o WHERE o.uuid = ? AND o.type_id = ? AND \(visible.sql)
            """, arguments: [workoutUUID, try SampleSQL.typeID(db, HKWorkoutTypeIdentifier)] + visible.arguments) else {
            throw HKError(.errorInvalidArgument, "the workout was not found among the workouts this app can read")
        }
        guard let activityUUID else { return (workoutID, -1, sample.id) }
        // The workout is visible, so whether the activity is one of its activities reveals nothing.
        guard let position = try Int64.fetchOne(db, sql: "SELECT position FROM workout_activities WHERE workout_id = ? AND uuid = ?",
                                                arguments: [workoutID, activityUUID]) else {
            throw HKError(.errorInvalidArgument, "the activity is not one of the workout's activities")
        }
        return (workoutID, position, sample.id)
    }

    /// The relations of the workouts matching `predicate` that the reader can see: `workouts`
    /// is its visibility for HKWorkoutType (the workouts, and what the predicate names), and
    /// `samples` its scope for each effort type. Each relation lists only the samples visible
    /// under their type's scope, and a relation left with none is absent. With `mostRelevant`
    /// each relation keeps only `WorkoutEffortRules.mostRelevant` of them. Ordered by workout
    /// start, then the workout itself before its activities, then sample start.
    /// More than `maximumSamples` related samples fail with errorInvalidArgument (a count of
    /// visible rows only), rather than an answer cut short.
    public func workoutEffortRelations(matching predicate: SamplePredicate?, workouts: Visibility, samples: [String: ReadScope],
                                       mostRelevant: Bool, maximumSamples: Int) throws -> [WorkoutEffortRelation] {
        try writer.read { db in
            let workoutVisible = SampleSQL.visibility(workouts.scope, alias: "o")
            let matching: (sql: String, arguments: StatementArguments) =
                try predicate.map { try SampleSQL.condition($0, of: HKWorkoutTypeIdentifier, within: workouts) } ?? ("1", [])
            // One term per effort type: the type's id bound, then the sample row confined to the
            // reader's scope for that type (the same choke point every read uses).
            var sampleTerms: [String] = []
            var sampleArguments = StatementArguments()
            for type in WorkoutEffortRules.effortTypes {
                // A type missing from `samples` shows nothing: no source has an empty identifier.
                let scope = samples[type] ?? .ownSamples(appID: "")
                let visible = SampleSQL.visibility(scope, alias: "s", table: .objects)
                sampleTerms.append("(s.type_id = ? AND \(visible.sql))")
                sampleArguments += [try SampleSQL.typeID(db, type)]
                sampleArguments += visible.arguments
            }
            var arguments: StatementArguments = [try SampleSQL.typeID(db, HKWorkoutTypeIdentifier)]
            arguments += workoutVisible.arguments
            arguments += matching.arguments
            arguments += sampleArguments
            let rows = try Row.fetchCursor(db, sql: """
                SELECT o.uuid AS workout_uuid, a.uuid AS activity_uuid, r.activity_position, s.uuid AS sample_uuid,
                       t.identifier AS sample_type, s.start_us, s.end_us, s.id AS sample_id
                FROM objects o
                JOIN workout_effort_relations r ON r.workout_id = o.id
                JOIN objects s ON s.id = r.sample_id
                JOIN sample_types t ON t.id = s.type_id
                LEFT JOIN workout_activities a ON a.workout_id = r.workout_id AND a.position = r.activity_position
                WHERE o.type_id = ? AND \(workoutVisible.sql) AND (\(matching.sql)) AND (\(sampleTerms.joined(separator: " OR ")))
                ORDER BY o.start_us, o.id, r.activity_position, s.start_us, s.id
                """, arguments: arguments)
            var relations: [WorkoutEffortRelation] = []
            var candidates: [WorkoutEffortRules.Candidate] = []
            var count = 0
            func close() {
                guard mostRelevant, let last = relations.indices.last else { return }
                relations[last].sampleUUIDs = WorkoutEffortRules.mostRelevant(candidates).map { [$0.uuid] } ?? []
                candidates = []
            }
            while let row = try rows.next() {
                count += 1
                guard count <= maximumSamples else {
                    throw HKError(.errorInvalidArgument,
                                  "more than \(maximumSamples) related samples match; narrow the predicate to fewer workouts")
                }
                let workoutUUID: UUID = row["workout_uuid"]
                let activityUUID: UUID? = row["activity_uuid"]
                let sampleUUID: UUID = row["sample_uuid"]
                if relations.last.map({ $0.workoutUUID != workoutUUID || $0.activityUUID != activityUUID }) ?? true {
                    close()
                    relations.append(WorkoutEffortRelation(workoutUUID: workoutUUID, activityUUID: activityUUID, sampleUUIDs: []))
                }
                relations[relations.count - 1].sampleUUIDs.append(sampleUUID)
                if mostRelevant {
                    candidates.append(.init(uuid: sampleUUID, typeIdentifier: row["sample_type"],
                                            startDate: Date(microsecondsSince1970: row["start_us"]),
                                            endDate: Date(microsecondsSince1970: row["end_us"]), order: row["sample_id"]))
                }
            }
            close()
            return relations
        }
    }
}
