import Foundation
import HealthModel
import HealthWire

/// Workout effort relations (iOS 18): the hidden app related one effort score to its workout
/// (`ProbeData.saveHiddenObjects`) and another to each probing app's own workout
/// (`ProbeData.relateHiddenEffort`): a visible workout with a hidden sample. Every read of relations — the relationship query with and
/// without a predicate on the workouts, `.mostRelevant`, and the sample predicate — and every
/// change naming a hidden object, each beside a twin naming nothing (`changeTwins`, `readTwins`).
/// Relating the app's own score is tried last, after the reads, and undone at once; the
/// relationship query is then continued from its first answer's anchor.
extension ProbeCatalog {
    static let workoutEffort: [ProbeCall] = [
        .stream("effort relationships", .queryWorkoutEffortRelationships) { _ in
            WorkoutEffortQuery(predicate: nil, mostRelevant: false).wireBytes()
        },
        .stream("effort relationships, most relevant", .queryWorkoutEffortRelationships) { _ in
            WorkoutEffortQuery(predicate: nil, mostRelevant: true).wireBytes()
        },
        .stream("effort relationships of the hidden workout", .queryWorkoutEffortRelationships) {
            WorkoutEffortQuery(predicate: .uuids([$0.hidden.workout]), mostRelevant: false).wireBytes()
        },
        .stream("effort relationships of a workout that does not exist", .queryWorkoutEffortRelationships) { _ in
            WorkoutEffortQuery(predicate: .uuids([freshUUID]), mostRelevant: false).wireBytes()
        },
        .stream("effort relationships of its own workout", .queryWorkoutEffortRelationships) {
            WorkoutEffortQuery(predicate: .uuids([$0.ownWorkout]), mostRelevant: false).wireBytes()
        },
        .query("effort scores related to its own workout") {
            SampleQuerySpec(typeIdentifier: ProbeData.effort, predicate: .workoutEffort(workout: $0.ownWorkout, activity: nil))
        },
        .query("effort scores related to the hidden workout") {
            SampleQuerySpec(typeIdentifier: ProbeData.effort, predicate: .workoutEffort(workout: $0.hidden.workout, activity: nil))
        },
        .query("effort scores related to a workout that does not exist") { _ in
            SampleQuerySpec(typeIdentifier: ProbeData.effort, predicate: .workoutEffort(workout: freshUUID, activity: nil))
        },
        .query("effort scores not related to the hidden workout") {
            SampleQuerySpec(typeIdentifier: ProbeData.effort, predicate: .not(.workoutEffort(workout: $0.hidden.workout, activity: nil)))
        },
        .unary("effort: relate a hidden score to its workout", .relateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: $0.hidden.effortScore, workoutUUID: $0.ownWorkout, activityUUID: nil).wireBytes()
        },
        .unary("effort: relate a score that does not exist to its workout", .relateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: freshUUID, workoutUUID: $0.ownWorkout, activityUUID: nil).wireBytes()
        },
        .unary("effort: relate its score to the hidden workout", .relateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: ProbeData.ownEffortScore($0.ownUUIDs), workoutUUID: $0.hidden.workout,
                                        activityUUID: nil).wireBytes()
        },
        .unary("effort: relate its score to a workout that does not exist", .relateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: ProbeData.ownEffortScore($0.ownUUIDs), workoutUUID: freshUUID, activityUUID: nil).wireBytes()
        },
        .unary("effort: unrelate its score from the hidden workout", .unrelateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: ProbeData.ownEffortScore($0.ownUUIDs), workoutUUID: $0.hidden.workout,
                                        activityUUID: nil).wireBytes()
        },
        .unary("effort: unrelate its score from a workout that does not exist", .unrelateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: ProbeData.ownEffortScore($0.ownUUIDs), workoutUUID: freshUUID, activityUUID: nil).wireBytes()
        },
        .unary("effort: relate its score to its own workout", .relateWorkoutEffort) {
            WorkoutEffortRelationChange(sampleUUID: ProbeData.ownEffortScore($0.ownUUIDs), workoutUUID: $0.ownWorkout, activityUUID: nil).wireBytes()
        },
        .stream("effort relationships after relating its own", .queryWorkoutEffortRelationships) { _ in
            WorkoutEffortQuery(predicate: nil, mostRelevant: false).wireBytes()
        },
        // After an anchor: only its own relation changed since (a hidden relation is older or invisible).
        .stream("effort relationships since the first answer", .queryWorkoutEffortRelationships) {
            WorkoutEffortQuery(predicate: nil, mostRelevant: false, anchor: $0.anchor(of: "effort relationships")).wireBytes()
        },
    ]
}
