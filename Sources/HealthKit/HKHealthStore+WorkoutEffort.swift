import Foundation
import HealthWire

extension HKHealthStore {
    /// Relates an effort sample with a workout, or with one activity of it (iOS 18). The
    /// sample must be a workoutEffortScore or estimatedWorkoutEffortScore sample this app saved,
    /// and the app needs share permission for its type; the workout must be one the app can
    /// read. Another app's sample, a workout the app cannot read and a UUID that does not exist
    /// fail alike with `errorInvalidArgument`; an activity that is not one of the workout's
    /// fails with `errorInvalidArgument` too. Relating a sample twice succeeds and changes
    /// nothing. While the store is locked the call succeeds as soon as healthd has journaled it
    /// (as a save does) and takes effect at unlock, checked then as a call made then would be:
    /// one that would have failed changes nothing. Only an app that may share neither effort
    /// type is refused at once, as it would be unlocked.
    func brokerRelateWorkoutEffortSample(_ sample: HKSample, with workout: HKWorkout, activity: HKWorkoutActivity?) async throws -> Bool {
        try Self.checkActivity(activity, of: workout)
        let change = WorkoutEffortRelationChange(sampleUUID: sample.uuid, workoutUUID: workout.uuid, activityUUID: activity?.uuid)
        let _: EmptyMessage = try await connection.call(.relateWorkoutEffort, change)
        return true
    }

    /// Removes a relation made by `relateWorkoutEffortSample`, under the same rules. Removing a
    /// relation that does not exist succeeds and changes nothing.
    func brokerUnrelateWorkoutEffortSample(_ sample: HKSample, from workout: HKWorkout, activity: HKWorkoutActivity?) async throws -> Bool {
        try Self.checkActivity(activity, of: workout)
        let change = WorkoutEffortRelationChange(sampleUUID: sample.uuid, workoutUUID: workout.uuid, activityUUID: activity?.uuid)
        let _: EmptyMessage = try await connection.call(.unrelateWorkoutEffort, change)
        return true
    }

    /// Apple refuses an activity that is not one of the workout's ("must be sub activity of
    /// Workout"); the SDK checks it against the workout object the app holds before any call.
    private static func checkActivity(_ activity: HKWorkoutActivity?, of workout: HKWorkout) throws(HKError) {
        guard let activity else { return }
        guard workout.workoutActivities.contains(where: { $0.uuid == activity.uuid }) else {
            throw HKError(.errorInvalidArgument, "the activity is not one of the workout's activities (workoutActivities)")
        }
    }
}
