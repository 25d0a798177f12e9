import Foundation
import HealthKit

// Workout effort relationships over time, as Apple documents them: HKWorkoutEffortRelationshipQuery
// is "a long running query" whose "first call to resultsHandler will contain the inital results
// which may be empty and future callbacks will contain new relationships as well as any changes
// to previous relationships along with a new anchor" (HKWorkoutEffortRelationshipQuery.h);
// HKWorkoutEffortRelationshipQueryDescriptor.result(for:) "Returns the changes made to the health
// store matching the receiver. If the anchor property is non-nil, the result will be limited to
// changes made since that anchor was previously returned"
// (developer.apple.com/documentation/healthkit/hkworkouteffortrelationshipquerydescriptor/result(for:));
// HKWorkoutEffortRelationship is NSSecureCoding (…/documentation/healthkit/hkworkouteffortrelationship).

/// Whether a handler runs for the first time: a continuation resumes once.
final class OneAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var answered = false

    func first() -> Bool {
        lock.withLock {
            defer { answered = true }
            return !answered
        }
    }
}

/// A finished workout of `activityType` with one activity, and two saved effort scores, not yet
/// related: `workout` at the workout's end, `activity` at the activity's start.
func savedWorkoutWithScores(_ healthStore: HKHealthStore, _ activityType: HKWorkoutActivityType, workout workoutValue: Double,
                            activity activityValue: Double) async throws -> (HKWorkout, HKWorkoutActivity, HKQuantitySample, HKQuantitySample) {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = activityType
    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: .local())
    let start = Date().addingTimeInterval(-7200)
    try await builder.beginCollection(at: start)
    try await builder.addWorkoutActivity(HKWorkoutActivity(workoutConfiguration: configuration, start: start,
                                                           end: start.addingTimeInterval(900), metadata: nil))
    try await builder.endCollection(at: start.addingTimeInterval(2400))
    guard let workout = try await builder.finishWorkout(), let activity = workout.workoutActivities.first else {
        usage("finishWorkout returned no workout with an activity")
    }
    func score(_ value: Double, at date: Date) -> HKQuantitySample {
        HKQuantitySample(type: HKQuantityType(.workoutEffortScore), quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: value),
                         start: date, end: date)
    }
    let workoutScore = score(workoutValue, at: workout.endDate)
    let activityScore = score(activityValue, at: activity.startDate)
    try await healthStore.save([workoutScore, activityScore])
    return (workout, activity, workoutScore, activityScore)
}

/// Prints one line:
/// ok initial:… live:…|…|… since:… deleted:… archive:…,… foreign:…
func workoutEffortChangesSnippet(_ healthStore: HKHealthStore) async throws {
    let (workout, activity, workoutScore, activityScore) = try await savedWorkoutWithScores(healthStore, .cycling, workout: 7, activity: 9)
    let effortType = HKQuantityType(.workoutEffortScore)
    _ = try await healthStore.relateWorkoutEffortSample(workoutScore, with: workout, activity: nil)

    // The descriptor from the beginning.
    let initial = try await HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: nil, option: .default).result(for: healthStore)

    // The query, long-running from that anchor: its initial results (nothing changed since), then
    // one callback per change.
    let (callbacks, callback) = AsyncStream<([HKWorkoutEffortRelationship]?, (any Error)?)>.makeStream()
    let query = HKWorkoutEffortRelationshipQuery(predicate: nil, anchor: initial.newAnchor, options: .default) { _, relationships, _, error in
        callback.yield((relationships, error))
    }
    healthStore.execute(query)
    var updates = callbacks.makeAsyncIterator()
    var live: [String] = []
    func nextCallback() async throws -> [HKWorkoutEffortRelationship] {
        guard let (relationships, error) = await updates.next() else { usage("the query's callbacks ended") }
        if let error { throw error }
        return relationships ?? []
    }
    live.append("\(try await nextCallback().count)")
    _ = try await healthStore.relateWorkoutEffortSample(activityScore, with: workout, activity: activity)
    live.append(describe(try await nextCallback()))
    _ = try await healthStore.unrelateWorkoutEffortSample(workoutScore, from: workout, activity: nil)
    live.append(describe(try await nextCallback()))
    healthStore.stop(query)

    // The descriptor from the first anchor: both relationships changed since, each as it is now.
    let since = try await HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: initial.newAnchor, option: .default)
        .result(for: healthStore)
    // Deleting the activity's score changes that relationship once more.
    try await healthStore.delete(activityScore)
    let deleted = try await HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: since.newAnchor, option: .default)
        .result(for: healthStore)

    // NSSecureCoding: a relationship survives an archive, with and without an activity.
    var archived: [Bool] = []
    for relationship in [initial.relationships.first, since.relationships.first { $0.activity != nil }] {
        guard let relationship else { archived.append(false); continue }
        let data = try NSKeyedArchiver.archivedData(withRootObject: relationship, requiringSecureCoding: true)
        let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKWorkoutEffortRelationship.self, from: data)
        archived.append(restored?.workout == relationship.workout && restored?.activity?.uuid == relationship.activity?.uuid
                        && restored?.samples?.map(\.uuid) == relationship.samples?.map(\.uuid))
    }

    // An anchored object query's anchor is no anchor of this query.
    let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: effortType)], anchor: nil).result(for: healthStore)
    var foreign = "accepted"
    do {
        _ = try await HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: anchored.newAnchor, option: .default)
            .result(for: healthStore)
    } catch let error as HKError {
        foreign = error.code == .errorInvalidArgument ? "invalidArgument" : "\(error.code)"
    }

    print("ok initial:\(describe(initial.relationships)) live:\(live.joined(separator: "|")) since:\(describe(since.relationships))"
          + " deleted:\(describe(deleted.relationships)) archive:\(archived.map { "\($0)" }.joined(separator: ",")) foreign:\(foreign)")
}

/// HKWorkoutEffortRelationshipQueryDescriptor as an HKAsyncSequenceQuery
/// (developer.apple.com/documentation/healthkit/hkasyncsequencequery: "Conforming Types …
/// HKWorkoutEffortRelationshipQueryDescriptor"; `results(for:)` "Initiates a query that returns
/// its results using an asynchronous sequence"), iterated as Apple's page shows for the anchored
/// descriptor: `for try await result in descriptor.results(for: store)`. Prints one line:
/// ok elements:…|…|… resumed:… foreign:…
func workoutEffortResultsSnippet(_ healthStore: HKHealthStore) async throws {
    let (workout, activity, workoutScore, activityScore) = try await savedWorkoutWithScores(healthStore, .rowing, workout: 6, activity: 8)
    let effortType = HKQuantityType(.workoutEffortScore)
    _ = try await healthStore.relateWorkoutEffortSample(workoutScore, with: workout, activity: nil)

    // From the beginning: the relationship that exists, then one element per change, each
    // changed relationship as it is now; leaving the loop stops the query.
    let descriptor = HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: nil, option: .default)
    var elements: [String] = []
    var last: HKQueryAnchor?
    for try await result in descriptor.results(for: healthStore) {
        last = result.newAnchor
        elements.append(describe(result.relationships))
        if elements.count == 1 {
            _ = try await healthStore.relateWorkoutEffortSample(activityScore, with: workout, activity: activity)
        } else if elements.count == 2 {
            _ = try await healthStore.unrelateWorkoutEffortSample(workoutScore, from: workout, activity: nil)
        } else {
            break
        }
    }
    // The last element's anchor resumes after every change the sequence handed out.
    guard let last else { usage("the sequence ended without an element") }
    let resumed = try await HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: last, option: .default).result(for: healthStore)

    // Another query's anchor ends the sequence with the query's error.
    let anchored = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: effortType)], anchor: nil).result(for: healthStore)
    var foreign = "accepted"
    do {
        for try await _ in HKWorkoutEffortRelationshipQueryDescriptor(predicate: nil, anchor: anchored.newAnchor, option: .default)
            .results(for: healthStore) { break }
    } catch let error as HKError {
        foreign = error.code == .errorInvalidArgument ? "invalidArgument" : "\(error.code)"
    }
    print("ok elements:\(elements.joined(separator: "|")) resumed:\(resumed.relationships.count) foreign:\(foreign)")
}

/// "workout=7;activity=9": each relationship's kind and its samples' scores ("workout=" for none).
private func describe(_ relationships: [HKWorkoutEffortRelationship]) -> String {
    relationships.map { relationship in
        (relationship.activity == nil ? "workout" : "activity") + "="
            + (relationship.samples ?? []).compactMap { ($0 as? HKQuantitySample)?.quantity.doubleValue(for: .appleEffortScore()) }
            .map { "\(Int($0))" }.joined(separator: ",")
    }.joined(separator: ";")
}
