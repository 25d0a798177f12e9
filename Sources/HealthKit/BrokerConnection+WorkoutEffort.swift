import Foundation
import HealthModel
import HealthWire

extension BrokerConnection {
    /// The relationships healthd lists for `request`, as objects: healthd answers with UUIDs
    /// only, and the workouts and samples are then fetched with ordinary sample queries, under
    /// the same read rules. A relationship whose workout or samples are gone by then (deleted
    /// between the two reads) is left out, or keeps the samples still there.
    func workoutEffortRelationships(_ request: WorkoutEffortQuery) async throws(HKError) -> [HKWorkoutEffortRelationship] {
        let answer: WorkoutEffortRelations = try await call(.queryWorkoutEffortRelationships, request)
        let relations = answer.relations
        guard !relations.isEmpty else { return [] }
        let workoutUUIDs = Set(relations.map(\.workoutUUID))
        let sampleUUIDs = Set(relations.flatMap(\.sampleUUIDs))
        var workouts: [UUID: HKWorkout] = [:]
        for case let workout as HKWorkout in try await samples(matching: SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier,
                                                                                             predicate: .uuids(workoutUUIDs))) {
            workouts[workout.uuid] = workout
        }
        var samplesByUUID: [UUID: HKSample] = [:]
        for type in WorkoutEffortRules.effortTypes {
            for sample in try await samples(matching: SampleQuerySpec(typeIdentifier: type, predicate: .uuids(sampleUUIDs))) {
                samplesByUUID[sample.uuid] = sample
            }
        }
        return relations.compactMap { relation in
            guard let workout = workouts[relation.workoutUUID] else { return nil }
            let activity = relation.activityUUID.flatMap { uuid in workout.workoutActivities.first { $0.uuid == uuid } }
            if relation.activityUUID != nil, activity == nil { return nil }
            let related = relation.sampleUUIDs.compactMap { samplesByUUID[$0] }
            guard !related.isEmpty else { return nil }
            return HKWorkoutEffortRelationship(workout: workout, activity: activity, samples: related)
        }
    }
}
