public import Foundation
import GRDB
public import HealthModel

/// Workout effort relations (iOS 18): writing them for an app, and reading them under a reader's
/// scopes. The rules (SECURITY.md "Workout effort relations"):
/// - an app relates only an effort sample it saved itself, to a workout it can read; another
///   app's sample, a hidden workout and a UUID that does not exist fail alike, so the call
///   reveals nothing about data the app cannot see (`WorkoutEffortChanges`);
/// - a reader sees a relation only where it can read both sides: the workout under its workout
///   scope and each sample under its own type's scope. A relation whose samples are all hidden
///   is absent, exactly as if it had never been made, and so is its every change.
extension SampleRepository {
    /// Relates (or, `relate` false, unrelates) `appID`'s effort sample with the workout — or one
    /// activity of it — durably (`WorkoutEffortChanges.apply`). `workouts`: the app's read scope
    /// for HKWorkoutType (the workout must be visible in it).
    public func changeWorkoutEffortRelation(sample sampleUUID: UUID, workout workoutUUID: UUID, activity activityUUID: UUID?,
                                            appID: String, workouts: ReadScope, relate: Bool) async throws {
        try await commits.submit(returning: { db in
            try WorkoutEffortChanges.apply(sample: sampleUUID, workout: workoutUUID, activity: activityUUID, appID: appID,
                                           workouts: workouts, relate: relate, db)
        })
    }

    /// The type of `appID`'s own object `uuid`, or nil (another app's, or none): what the broker
    /// checks share permission for before relating.
    public func ownObjectType(_ uuid: UUID, appID: String) throws -> String? {
        try writer.read { db in try OwnedObjects.row(db, uuid: uuid, appID: appID)?.typeIdentifier }
    }

    /// The relations of the workouts matching `predicate` that the reader can see: `workouts`
    /// is its visibility for HKWorkoutType (the workouts, and what the predicate names), and
    /// `samples` its scope for each effort type. Each relation lists only the samples visible
    /// under their type's scope. With `mostRelevant` each relation keeps only
    /// `WorkoutEffortRules.mostRelevant` of them. Ordered by workout start, then the workout
    /// itself before its activities, then sample start.
    ///
    /// `after` nil: every relation with a visible sample. `after` a change number (from an
    /// anchor): only the relations that changed after it in a way the reader can see — a visible
    /// sample related, or one unrelated or deleted — each as it is now, which may be with no
    /// sample left (the change emptied it). A change the reader's scopes hide selects nothing.
    /// `through` is the store's change number in the same read: the next anchor. With `snapshot`
    /// (a delivery's, `ReadSnapshot`), a reading after the delivery's first is the relations as
    /// the first one found them — those unrelated since included — less the samples that left the
    /// store, and `through` is the first reading's number: what changed since belongs to the next
    /// delivery.
    ///
    /// More than `maximumSamples` related samples fail with errorInvalidArgument (a count of
    /// visible rows only), rather than an answer cut short.
    public func workoutEffortRelations(matching predicate: SamplePredicate?, workouts: Visibility, samples: [String: ReadScope],
                                       mostRelevant: Bool, maximumSamples: Int, after: Int64? = nil,
                                       within snapshot: ReadSnapshot? = nil) throws -> (relations: [WorkoutEffortRelation], through: Int64) {
        try writer.read { db in
            let bound = try snapshot?.bound(db)
            let through = try bound?.through ?? ReadSnapshot.changeNumber(db)
            let query = try WorkoutEffortRelationSQL(db, predicate: predicate, workouts: workouts, samples: samples, after: after,
                                                     through: bound?.confines == true ? through : nil)
            var relations = try Self.relatedSamples(db, query, mostRelevant: mostRelevant, maximumSamples: maximumSamples)
            if after != nil {
                // Every changed relation is answered, those left with no visible sample too.
                var byKey: [WorkoutEffortRelationSQL.Key: WorkoutEffortRelation] = [:]
                for relation in relations { byKey[.init(workout: relation.workoutUUID, activity: relation.activityUUID)] = relation }
                relations = try query.changedRelations(db, maximum: maximumSamples).map { key in
                    byKey[key] ?? WorkoutEffortRelation(workoutUUID: key.workout, activityUUID: key.activity, sampleUUIDs: [])
                }
            }
            return (relations, through)
        }
    }

    /// The relations `query` selects that have a visible sample, with those samples.
    private static func relatedSamples(_ db: Database, _ query: WorkoutEffortRelationSQL, mostRelevant: Bool,
                                       maximumSamples: Int) throws -> [WorkoutEffortRelation] {
        let rows = try Row.fetchCursor(db, sql: query.relatedSamplesSQL, arguments: query.relatedSamplesArguments)
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
