import Foundation
import HealthKit

// Workout effort (iOS 18) written as Apple documents it:
// developer.apple.com/documentation/healthkit/hkhealthstore/relateworkouteffortsample(_:with:activity:completion:),
// …/unrelateworkouteffortsample(_:from:activity:completion:), …/hkworkouteffortrelationshipquery,
// …/hkworkouteffortrelationshipquerydescriptor and …/hkquery/predicateforworkouteffortsamplesrelated(workout:activity:).

/// Builds a workout with one activity, rates the workout (and the activity) with effort
/// scores, reads the relationships back three ways, then unrelates. Prints one line:
/// ok related:… relationships:… predicate:… activity:… mostRelevant:… unrelated:… wrongType:… stranger:…
func workoutEffortSnippet(_ healthStore: HKHealthStore) async throws {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .running
    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: .local())
    let start = Date().addingTimeInterval(-3600)
    try await builder.beginCollection(at: start)
    let interval = HKWorkoutActivity(workoutConfiguration: configuration, start: start, end: start.addingTimeInterval(600), metadata: nil)
    try await builder.addWorkoutActivity(interval)
    try await builder.endCollection(at: start.addingTimeInterval(1800))
    guard let workout = try await builder.finishWorkout(), let activity = workout.workoutActivities.first else {
        usage("finishWorkout returned no workout with an activity")
    }

    let effortType = HKQuantityType(.workoutEffortScore)
    let end = workout.endDate
    let score = HKQuantitySample(type: effortType, quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: 7), start: end, end: end)
    let estimate = HKQuantitySample(type: HKQuantityType(.estimatedWorkoutEffortScore),
                                    quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: 5), start: end, end: end)
    let intervalScore = HKQuantitySample(type: effortType, quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: 9),
                                         start: activity.startDate, end: activity.startDate)
    try await healthStore.save([score, estimate, intervalScore])
    let related = try await healthStore.relateWorkoutEffortSample(score, with: workout, activity: nil)
    _ = try await healthStore.relateWorkoutEffortSample(estimate, with: workout, activity: nil)
    let relatedToActivity: Bool = await withCheckedContinuation { continuation in
        healthStore.relateWorkoutEffortSample(intervalScore, with: workout, activity: activity) { success, error in
            continuation.resume(returning: success && error == nil)
        }
    }

    // HKWorkoutEffortRelationshipQuery with a predicate on the workouts: long-running, so it is
    // stopped once the initial results are in ("it is the responsibility of the caller to stop
    // the query after they have received the results they desire", HKWorkoutEffortRelationshipQuery.h).
    let relationships: [HKWorkoutEffortRelationship] = try await withCheckedThrowingContinuation { continuation in
        let answered = OneAnswer()
        let query = HKWorkoutEffortRelationshipQuery(predicate: HKQuery.predicateForObjects(with: [workout.uuid]), anchor: nil,
                                                     options: .default) { query, relationships, _, error in
            guard answered.first() else { return }
            healthStore.stop(query)
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: relationships ?? []) }
        }
        healthStore.execute(query)
    }
    let described = relationships.map { relationship in
        (relationship.activity == nil ? "workout" : "activity") + "="
            + (relationship.samples ?? []).compactMap { ($0 as? HKQuantitySample)?.quantity.doubleValue(for: .appleEffortScore()) }
            .map { "\(Int($0))" }.joined(separator: ",")
    }

    // The sample query predicate, for the workout and for its activity.
    let relatedSamples = try await effortSamples(healthStore, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: nil))
    let activitySamples = try await effortSamples(healthStore,
                                                  HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: activity))

    // The Swift descriptor with .mostRelevant: one sample per relationship.
    let descriptor = HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: nil, option: .mostRelevant)
    let result = try await descriptor.result(for: healthStore)
    let mostRelevant = result.relationships.filter { $0.activity == nil }.flatMap { $0.samples ?? [] }
        .compactMap { ($0 as? HKQuantitySample)?.quantityType.identifier == HKQuantityTypeIdentifier.workoutEffortScore.rawValue ? "user" : "estimate" }

    let unrelated = try await healthStore.unrelateWorkoutEffortSample(score, from: workout, activity: nil)
    let afterUnrelate = try await effortSamples(healthStore, HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: nil))

    // Only effort samples relate; an activity of another workout is refused.
    let heartRate = HKQuantitySample(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: .count().unitDivided(by: .minute()),
                                                                                               doubleValue: 150), start: end, end: end)
    try await healthStore.save(heartRate)
    var wrongType = "accepted"
    do { _ = try await healthStore.relateWorkoutEffortSample(heartRate, with: workout, activity: nil) } catch let error as HKError {
        wrongType = error.code == .errorInvalidArgument ? "invalidArgument" : "\(error.code)"
    }
    let stranger = HKWorkoutActivity(workoutConfiguration: configuration, start: start, end: nil, metadata: nil)
    var strangerOutcome = "accepted"
    do { _ = try await healthStore.relateWorkoutEffortSample(score, with: workout, activity: stranger) } catch let error as HKError {
        strangerOutcome = error.code == .errorInvalidArgument ? "invalidArgument" : "\(error.code)"
    }
    print("ok related:\(related),\(relatedToActivity) relationships:\(described.joined(separator: ";"))"
          + " predicate:\(relatedSamples.count) activity:\(activitySamples.count) mostRelevant:\(mostRelevant.joined(separator: ","))"
          + " unrelated:\(unrelated),\(afterUnrelate.count) wrongType:\(wrongType) stranger:\(strangerOutcome)")
}

private func effortSamples(_ healthStore: HKHealthStore, _ predicate: NSPredicate) async throws -> [HKSample] {
    try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: HKQuantityType(.workoutEffortScore), predicate: predicate, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
}
