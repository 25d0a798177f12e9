import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// `add(_:to:)`: associating samples with a workout. Saving and querying workouts go through
/// `AppService.save` and `querySamples` like any sample.
///
/// The rule (SECURITY.md): an app associates only objects it saved itself with a workout it
/// saved itself. A UUID of another app's object, visible to it or not, fails exactly like a
/// UUID that does not exist, so the call reveals nothing about other apps' data.
enum WorkoutService {
    static func addSamplesToWorkout(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let association = try WorkoutAssociation(wire: payload)
        guard !association.sampleUUIDs.isEmpty else { throw HKError(.errorInvalidArgument, "no samples to add to the workout") }
        // Share permission for the workout and for every sample's type, as saving them needed.
        // The types come from the app's own objects only; a missing one fails in `associate`.
        // While locked the samples' types are checked at merge (StoreHandle.associate).
        try await context.store.associate(association.sampleUUIDs, with: association.workoutUUID, appID: app.id) { database, types in
            try database.authorization.checkSave(app: app, types: types.union([HKWorkoutTypeIdentifier]))
        }
        CallAccessReport.record(appID: app.id, types: [HKWorkoutTypeIdentifier], count: association.sampleUUIDs.count,
                                detail: "associated with a workout")
        return MethodTable.Reply(EmptyMessage())
    }
}
