public import Foundation
public import HealthModel
public import HealthWire

/// Workout effort relations (iOS 18), for `healthctl samples workout`.
extension ManagerClient {
    /// The effort scores related to `workout` itself (`activity` nil) or to one of its
    /// activities, every app's (the user sees all their data), oldest first: one sample query per
    /// effort type with the predicate apps use (`predicateForWorkoutEffortSamplesRelated`).
    public func workoutEffortScores(of workout: UUID, activity: UUID?) async throws -> [SampleRecord] {
        var scores: [SampleRecord] = []
        for type in WorkoutEffortRules.effortTypes {
            let spec = SampleQuerySpec(typeIdentifier: type, predicate: .workoutEffort(workout: workout, activity: activity),
                                       sort: [SampleSort(.startDate, ascending: true)])
            for try await batch in querySamples(spec) { scores += batch.samples }
        }
        return scores
    }
}
