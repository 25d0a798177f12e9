import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Workout effort relations (iOS 18): `relateWorkoutEffortSample`, `unrelateWorkoutEffortSample`
/// and `HKWorkoutEffortRelationshipQuery`.
///
/// The rules (SECURITY.md "Workout effort relations"): relating or unrelating needs share
/// permission for the effort sample's type and takes only a sample the app saved itself, and a
/// workout the app can read — a hidden workout, another app's sample and a UUID that does not
/// exist fail alike. A reader sees a relation only as far as it can read both sides
/// (`SampleRepository.workoutEffortRelations`). Both writes need the open store: deciding
/// whether the workout is visible reads it, and reads are refused while locked.
enum WorkoutEffortService {
    static func relate(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        try await change(context, caller, payload, relate: true)
    }

    static func unrelate(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        try await change(context, caller, payload, relate: false)
    }

    private static func change(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], relate: Bool) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try WorkoutEffortRelationChange(wire: payload)
        let verb = relate ? "relating" : "unrelating"
        try await context.store.withDatabase(changing: "\(verb) a workout effort sample") { database in
            // Only the app's own object has a type here: another app's sample and an unknown UUID
            // fail alike, before any grant is consulted (the commit looks the sample up again).
            guard let type = try database.samples.ownObjectType(request.sampleUUID, appID: app.id) else {
                throw HKError(.errorInvalidArgument, "the sample was not found among the samples this app saved")
            }
            try WorkoutEffortRules.checkEffortType(type)
            try database.authorization.checkSave(app: app, types: [type])
            let workouts = try database.authorization.readScope(app: app, type: HKWorkoutTypeIdentifier).scope
            try await database.samples.changeWorkoutEffortRelation(sample: request.sampleUUID, workout: request.workoutUUID,
                                                                   activity: request.activityUUID, appID: app.id,
                                                                   workouts: workouts, relate: relate)
            CallAccessReport.record(appID: app.id, types: [type, HKWorkoutTypeIdentifier], count: 1,
                                    detail: relate ? "related to a workout" : "unrelated from a workout")
        }
        return MethodTable.Reply(EmptyMessage())
    }

    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try WorkoutEffortQuery(wire: payload)
        let report = CallAccessReport.current
        let relations = try await context.store.withDatabaseOffPool { database in
            // One resolution per read: the workouts' visibility (which also confines what the
            // predicate names) and each effort type's scope.
            let workouts = try database.authorization.readScope(app: app, type: HKWorkoutTypeIdentifier)
            var samples: [String: ReadScope] = [:]
            for type in WorkoutEffortRules.effortTypes {
                samples[type] = try database.authorization.readScope(app: app, type: type).scope
            }
            let relations = try database.samples.workoutEffortRelations(matching: request.predicate, workouts: workouts, samples: samples,
                                                                       mostRelevant: request.mostRelevant,
                                                                       maximumSamples: WireLimits.maxObjectsPerCall)
            report?.record(appID: app.id, types: [HKWorkoutTypeIdentifier] + WorkoutEffortRules.effortTypes,
                           count: relations.count)
            return relations
        }
        return MethodTable.Reply(WorkoutEffortRelations(relations))
    }
}
