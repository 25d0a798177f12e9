import Foundation
import HealthKit
import Synchronization

// `row-snippet NAME [ARGS…]` of the scripted app: API rows that were present but untested
// (issue 15), each written as Apple's page shows it (see AppleSnippets.swift); only the `print`
// lines are the test's (AppleSnippetTests+Rows).

func runRowSnippet(_ name: String, _ arguments: [String], _ healthStore: HKHealthStore) async throws {
    switch name {
    case "session-events": try await sessionEventsSnippet(healthStore, collect: arguments.first != "false")
    case "update-activity": try await updateActivitySnippet(healthStore)
    case "activity-summary-day":
        guard let seconds = arguments.first.flatMap(Double.init), let zone = arguments.dropFirst().first.flatMap(TimeZone.init(identifier:)) else {
            usage("row-snippet activity-summary-day SECONDS ZONE")
        }
        try await activitySummaryDaySnippet(healthStore, on: Date(timeIntervalSince1970: seconds), in: zone)
    case "series-sample-quantities": try await seriesSampleQuantitiesSnippet(healthStore)
    case "ecg-predicates": try await electrocardiogramPredicatesSnippet(healthStore)
    case "kind-descriptors": try await kindDescriptorsSnippet(healthStore)
    case "route-rows": try await routeRowsSnippet(healthStore, count: Int(arguments.first ?? "") ?? 30)
    case "workout-effort": try await workoutEffortSnippet(healthStore)
    case "workout-effort-changes": try await workoutEffortChangesSnippet(healthStore)
    case "workout-effort-results": try await workoutEffortResultsSnippet(healthStore)
    default: usage("unknown row snippet \(name)")
    }
}

/// A session delegate that keeps the events the session generates and the states it passes.
final class GeneratedEventRecorder: NSObject, HKWorkoutSessionDelegate, @unchecked Sendable {
    let generated = Mutex<[HKWorkoutEvent]>([])
    let states = Mutex<[HKWorkoutSessionState]>([])

    func workoutSession(_ workoutSession: HKWorkoutSession, didChangeTo toState: HKWorkoutSessionState,
                        from fromState: HKWorkoutSessionState, date: Date) {
        states.withLock { $0.append(toState) }
    }

    func workoutSession(_ workoutSession: HKWorkoutSession, didFailWithError error: Error) {}

    func workoutSession(_ workoutSession: HKWorkoutSession, didGenerate event: HKWorkoutEvent) {
        generated.withLock { $0.append(event) }
    }
}

/// developer.apple.com/documentation/healthkit/hkworkoutsessiondelegate/workoutsession(_:didgenerate:)
/// ("Tells the delegate that the session has generated a new event") and
/// …/hkliveworkoutbuilder/shouldcollectworkoutevents ("A Boolean value that determines whether
/// the builder automatically collects workout events", default true). Pauses and resumes a
/// running session; prints the default, what the delegate heard, what the builder and the saved
/// workout hold.
func sessionEventsSnippet(_ healthStore: HKHealthStore, collect: Bool) async throws {
    let recorder = GeneratedEventRecorder()
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .cycling
    configuration.locationType = .indoor
    let session = try HKWorkoutSession(healthStore: healthStore, configuration: configuration)
    let builder = session.associatedWorkoutBuilder()
    print("default \(builder.shouldCollectWorkoutEvents)")
    builder.shouldCollectWorkoutEvents = collect
    session.delegate = recorder

    let startDate = Date()
    session.startActivity(with: startDate)
    try await builder.beginCollection(at: startDate)
    session.pause()
    session.resume()
    session.end()
    try await builder.endCollection(at: Date())
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }

    // The delegate hears each call in order, so once it has heard `.ended` it has heard every
    // event before it; the deadline only guards against a hang.
    let deadline = Date().addingTimeInterval(30)
    while !recorder.states.withLock({ $0.contains(.ended) }), Date() < deadline {
        try await Task.sleep(for: .milliseconds(10))
    }
    let names = { (events: [HKWorkoutEvent]?) in
        events.map { $0.isEmpty ? "-" : $0.map { "\($0.type)" }.joined(separator: ",") } ?? "nil"
    }
    let generated = recorder.generated.withLock { $0 }
    let ordered = zip(generated, generated.dropFirst()).allSatisfy { $0.dateInterval.start <= $1.dateInterval.start }
    print("generated \(names(generated)) \(ordered && generated.allSatisfy { $0.dateInterval.start >= startDate })")
    print("builder \(names(builder.workoutEvents))")
    print("ok \(names(workout.workoutEvents))")
}

/// developer.apple.com/documentation/healthkit/hkworkoutbuilder/updateactivity(uuid:adding:) and
/// …/updateactivity(uuid:adding:completion:): "Adds metadata to the specified workout activity";
/// metadata already there stays, a key given again takes the new value (as addMetadata(_:)).
/// Prints the builder's activity metadata after both forms, whether the completion form
/// succeeded, and whether an update of an activity the builder does not have failed.
func updateActivitySnippet(_ healthStore: HKHealthStore) async throws {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .swimming
    configuration.swimmingLocationType = .pool
    configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: .local())
    let start = Date().addingTimeInterval(-1200)
    try await builder.beginCollection(at: start)

    let activity = HKWorkoutActivity(workoutConfiguration: configuration, start: start, end: nil,
                                     metadata: ["Lane": "4", "Drill": "pull"])
    try await builder.addWorkoutActivity(activity)
    try await builder.updateActivity(uuid: activity.uuid, adding: ["Drill": "kick", "Coach": "Ana"])
    let completed: Bool = await withCheckedContinuation { continuation in
        builder.updateActivity(uuid: activity.uuid, adding: ["Set": "main"]) { success, error in
            continuation.resume(returning: success && error == nil)
        }
    }
    let unknownFailed: Bool = await withCheckedContinuation { continuation in
        builder.updateActivity(uuid: UUID(), adding: ["Set": "cool-down"]) { success, error in
            continuation.resume(returning: !success && error != nil)
        }
    }
    try await builder.updateActivity(uuid: activity.uuid, end: start.addingTimeInterval(600))
    try await builder.endCollection(at: start.addingTimeInterval(1200))
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }

    let text = { (metadata: [String: Any]?) in
        (metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
    }
    print("stored \(text(workout.workoutActivities.first?.metadata))")
    print("ok \(text(builder.workoutActivities.first?.metadata)) \(completed) \(unknownFailed)")
}

/// developer.apple.com/documentation/healthkit/hkactivitysummaryquery (Apple's snippet): the
/// components of one day with their calendar set, `predicateForActivitySummary(with:)`, and the
/// query. Prints each summary's day and energy, then `ok COUNT`.
func activitySummaryDaySnippet(_ healthStore: HKHealthStore, on date: Date, in zone: TimeZone) async throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    var dateComponents = calendar.dateComponents([.year, .month, .day], from: date)
    dateComponents.calendar = calendar
    let predicate = HKQuery.predicateForActivitySummary(with: dateComponents)
    let summaries: [HKActivitySummary] = try await withCheckedThrowingContinuation { continuation in
        let query = HKActivitySummaryQuery(predicate: predicate) { query, summaries, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: summaries ?? []) }
        }
        healthStore.execute(query)
    }
    for summary in summaries {
        let day = summary.dateComponents(for: calendar)
        print(String(format: "summary %04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
              + " \(summary.activeEnergyBurned.doubleValue(for: .kilocalorie()))")
    }
    print("ok \(summaries.count)")
}

/// developer.apple.com/documentation/healthkit/hkquantityseriessamplequery/init(sample:quantityhandler:)
/// (iOS 12, deprecated in 13 but still in real code): the quantities of that one sample, each
/// with its date, the last call with `done`. A series of three step counts and a plain sample of
/// the same type; prints `ok VALUE@OFFSET,…` (`!` after the value whose call had `done`).
func seriesSampleQuantitiesSnippet(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    let start = Date(timeIntervalSince1970: 1_699_999_200)
    let other = HKQuantitySample(type: stepType, quantity: HKQuantity(unit: .count(), doubleValue: 99),
                                 start: start.addingTimeInterval(30), end: start.addingTimeInterval(90))
    try await healthStore.save(other)
    let builder = HKQuantitySeriesSampleBuilder(healthStore: healthStore, quantityType: stepType, startDate: start, device: nil)
    for (offset, steps) in [(0.0, 10.0), (60.0, 20.0), (120.0, 30.0)] {
        try builder.insert(HKQuantity(unit: .count(), doubleValue: steps), for: DateInterval(start: start + offset, duration: 60))
    }
    guard let sample = try await builder.finishSeries(metadata: nil).first else { usage("finishSeries returned no sample") }

    let quantities: [String] = try await withCheckedThrowingContinuation { continuation in
        let collected = Collected<String>()
        let query = HKQuantitySeriesSampleQuery(sample: sample) { query, quantity, date, done, error in
            if let error {
                continuation.resume(throwing: error)
                return
            }
            if let quantity, let date {
                collected.append("\(quantity.doubleValue(for: .count()))@\(date.timeIntervalSince(start))\(done ? "!" : "")")
            }
            if done { continuation.resume(returning: collected.items) }
        }
        healthStore.execute(query)
    }
    print("ok \(quantities.joined(separator: ","))")
}

/// developer.apple.com/documentation/healthkit/hkquery/predicateforelectrocardiograms(classification:)
/// and …/predicateforelectrocardiograms(symptomsstatus:): electrocardiograms with that
/// classification, or that symptoms status. Prints the number each predicate selects, then the
/// two combined, then the total.
func electrocardiogramPredicatesSnippet(_ healthStore: HKHealthStore) async throws {
    let ecgType = HKObjectType.electrocardiogramType()
    func count(_ predicate: NSPredicate?) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(sampleType: ecgType, predicate: predicate, limit: HKObjectQueryNoLimit, sortDescriptors: nil) {
                query, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples?.count ?? 0) }
            }
            healthStore.execute(query)
        }
    }
    var counts: [Int] = []
    for classification in [HKElectrocardiogram.Classification.sinusRhythm, .atrialFibrillation, .inconclusiveLowHeartRate] {
        counts.append(try await count(HKQuery.predicateForElectrocardiograms(classification: classification)))
    }
    for status in [HKElectrocardiogram.SymptomsStatus.notSet, .none, .present] {
        counts.append(try await count(HKQuery.predicateForElectrocardiograms(symptomsStatus: status)))
    }
    let sinusWithoutSymptoms = NSCompoundPredicate(andPredicateWithSubpredicates: [
        HKQuery.predicateForElectrocardiograms(classification: .sinusRhythm),
        HKQuery.predicateForElectrocardiograms(symptomsStatus: .none),
    ])
    counts.append(try await count(sinusWithoutSymptoms))
    counts.append(try await count(nil))
    // The same selection through Apple's descriptor factory, HKSamplePredicate.electrocardiogram(_:).
    let described = try await HKSampleQueryDescriptor(
        predicates: [.electrocardiogram(HKQuery.predicateForElectrocardiograms(classification: .sinusRhythm))],
        sortDescriptors: []).result(for: healthStore)
    counts.append(described.count)
    print("ok \(counts.map(String.init).joined(separator: " "))")
}
