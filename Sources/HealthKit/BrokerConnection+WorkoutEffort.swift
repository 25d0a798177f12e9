import Foundation
import HealthModel
import HealthWire

/// One delivery of an `HKWorkoutEffortRelationshipQuery`: the initial answer, or one update.
struct WorkoutEffortDelivery: Sendable {
    let relationships: [HKWorkoutEffortRelationship]
    let anchor: HKQueryAnchor
}

extension BrokerConnection {
    /// Runs a workout effort relationship query, handing each delivery to `deliver` in order.
    /// Returns after the one answer of a query that is not long-running; a long-running one ends
    /// only with an error. Cancelling the calling task stops the broker's stream and throws
    /// `errorUserCanceled`.
    func workoutEffortDeliveries(_ request: WorkoutEffortQuery,
                                 _ deliver: @Sendable (WorkoutEffortDelivery) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, messages) = try stream(.queryWorkoutEffortRelationships, request)
        var deliveries = 0
        do {
            for try await payload in messages {
                let answer: WorkoutEffortRelations
                do {
                    answer = try WorkoutEffortRelations(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed workout effort relationship answer (\(error))")
                }
                let relationships = try await workoutEffortRelationships(answer.relations)
                await deliver(WorkoutEffortDelivery(relationships: relationships, anchor: HKQueryAnchor(bytes: answer.anchor)))
                deliveries += 1
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        if deliveries == 0 { throw HKError(.unknownError, "healthd ended the workout effort relationship query without an answer") }
        if request.longRunning {
            throw HKError(.unknownError, "healthd ended the long-running workout effort relationship query without an error")
        }
    }

    /// The relationships healthd listed, as objects: healthd answers with UUIDs only, and the
    /// workouts and samples are then fetched with ordinary sample queries, under the same read
    /// rules. A relationship whose workout (or activity) is gone by then (deleted between the two
    /// reads) is left out; one whose samples are gone keeps those still there — possibly none,
    /// as healthd itself answers a relationship that a change left empty.
    private func workoutEffortRelationships(_ relations: [WorkoutEffortRelation]) async throws(HKError) -> [HKWorkoutEffortRelationship] {
        guard !relations.isEmpty else { return [] }
        let workoutUUIDs = Set(relations.map(\.workoutUUID))
        let sampleUUIDs = Set(relations.flatMap(\.sampleUUIDs))
        var workouts: [UUID: HKWorkout] = [:]
        for case let workout as HKWorkout in try await samples(matching: SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier,
                                                                                             predicate: .uuids(workoutUUIDs))) {
            workouts[workout.uuid] = workout
        }
        var samplesByUUID: [UUID: HKSample] = [:]
        if !sampleUUIDs.isEmpty {
            for type in WorkoutEffortRules.effortTypes {
                for sample in try await samples(matching: SampleQuerySpec(typeIdentifier: type, predicate: .uuids(sampleUUIDs))) {
                    samplesByUUID[sample.uuid] = sample
                }
            }
        }
        return relations.compactMap { relation in
            guard let workout = workouts[relation.workoutUUID] else { return nil }
            let activity = relation.activityUUID.flatMap { uuid in workout.workoutActivities.first { $0.uuid == uuid } }
            if relation.activityUUID != nil, activity == nil { return nil }
            return HKWorkoutEffortRelationship(workout: workout, activity: activity,
                                               samples: relation.sampleUUIDs.compactMap { samplesByUUID[$0] })
        }
    }
}
