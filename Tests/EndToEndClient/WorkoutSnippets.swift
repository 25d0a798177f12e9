import Foundation
import HealthKit
import Synchronization

// `snippet workout-…` of the scripted app: live workout recording written as Apple documents
// it (HKWorkoutSession, HKLiveWorkoutBuilder, HKWorkoutBuilder), unchanged but for the `print`
// lines the tests (AppleSnippetTests+Workouts) check. The delegate class is shaped like the
// WorkoutManager of Apple's "Building a multidevice workout app" sample.

func runWorkoutSnippet(_ name: String, _ arguments: [String], _ healthStore: HKHealthStore) async throws {
    switch name {
    case "workout-live": try await liveWorkout(healthStore, untilHeartRate: Double(arguments.first ?? "") ?? 0)
    case "workout-illegal": try await illegalTransitions(healthStore)
    case "workout-activities": try await multiActivityWorkout(healthStore)
    case "workout-stored": try await storedWorkouts(healthStore)
    case "workout-activity-details": try await workoutActivityDetails(healthStore)
    case "workout-session-activities": try await sessionActivities(healthStore)
    case "workout-route":
        try await workoutRouteSnippet(healthStore, live: arguments.first == "live", count: Int(arguments.dropFirst().first ?? "") ?? 30)
    case "workout-route-retry": try await workoutRouteRetrySnippet(healthStore, count: Int(arguments.first ?? "") ?? 30)
    case "workout-route-refused": try await workoutRouteRefusedSnippet(healthStore, count: Int(arguments.first ?? "") ?? 30)
    case "workout-sort-save": try await workoutSortSaveSnippet(healthStore, arguments)
    case "workout-sort": try await workoutSortSnippet(healthStore, arguments)
    case "energy-basal-save": try await energyBasalSaveSnippet(healthStore, arguments)
    case "energy-split": try await energySplitSnippet(healthStore, arguments)
    case "workout-data-source": try await liveDataSourceSnippet(healthStore, untilHeartRate: Double(arguments.first ?? "") ?? 0)
    default: usage("unknown snippet \(name)")
    }
}

/// Apple's workout manager: session and builder delegate, recording what it hears.
final class WorkoutManager: NSObject, HKWorkoutSessionDelegate, HKLiveWorkoutBuilderDelegate, @unchecked Sendable {
    let states = Mutex<[HKWorkoutSessionState]>([])
    let errors = Mutex<[String]>([])
    let collected = Mutex<Set<String>>([])
    let events = Mutex(0)

    func workoutSession(_ workoutSession: HKWorkoutSession, didChangeTo toState: HKWorkoutSessionState,
                        from fromState: HKWorkoutSessionState, date: Date) {
        states.withLock { $0.append(toState) }
    }

    func workoutSession(_ workoutSession: HKWorkoutSession, didFailWithError error: Error) {
        errors.withLock { $0.append((error as? HKError)?.code.rawValue.description ?? "\(error)") }
    }

    func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didCollectDataOf collectedTypes: Set<HKSampleType>) {
        for type in collectedTypes {
            guard let quantityType = type as? HKQuantityType else { continue }
            _ = workoutBuilder.statistics(for: quantityType)
            collected.withLock { $0.insert(quantityType.identifier) }
        }
    }

    func workoutBuilderDidCollectEvent(_ workoutBuilder: HKLiveWorkoutBuilder) {
        events.withLock { $0 += 1 }
    }

    let activityCalls = Mutex<[String]>([])

    func workoutSession(_ workoutSession: HKWorkoutSession, didBeginActivityWith workoutConfiguration: HKWorkoutConfiguration,
                        date: Date) {
        activityCalls.withLock { $0.append("session-begin:\(workoutConfiguration.activityType.rawValue)") }
    }

    func workoutSession(_ workoutSession: HKWorkoutSession, didEndActivityWith workoutConfiguration: HKWorkoutConfiguration,
                        date: Date) {
        activityCalls.withLock { $0.append("session-end:\(workoutConfiguration.activityType.rawValue)") }
    }

    func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didBegin workoutActivity: HKWorkoutActivity) {
        activityCalls.withLock { $0.append("builder-begin:\(workoutActivity.workoutConfiguration.activityType.rawValue)") }
    }

    func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didEnd workoutActivity: HKWorkoutActivity) {
        activityCalls.withLock { $0.append("builder-end:\(workoutActivity.workoutConfiguration.activityType.rawValue)") }
    }
}

/// Starts a running session with a live builder, announces `collecting START`, waits until the
/// most recent heart rate collected is `untilHeartRate` (another app saves it last), pauses and
/// resumes, adds one energy sample of its own, ends and finishes. Prints what it collected.
func liveWorkout(_ healthStore: HKHealthStore, untilHeartRate: Double) async throws {
    let manager = WorkoutManager()
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .running
    configuration.locationType = .outdoor

    let session = try HKWorkoutSession(healthStore: healthStore, configuration: configuration)
    let builder = session.associatedWorkoutBuilder()
    builder.dataSource = HKLiveWorkoutDataSource(healthStore: healthStore, workoutConfiguration: configuration)
    session.delegate = manager
    builder.delegate = manager

    let startDate = Date()
    session.startActivity(with: startDate)
    try await builder.beginCollection(at: startDate)
    print("collecting \(startDate.timeIntervalSince1970)")
    fflush(nil)  // the test waits for this line; all streams, as `stdout` is not concurrency-safe in Swift 6

    let heartRateType = HKQuantityType(.heartRate)
    let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
        let latest = builder.statistics(for: heartRateType)?.mostRecentQuantity()?.doubleValue(for: beatsPerMinute)
        if latest == untilHeartRate { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    // Anything else the app could collect has had its chance to arrive.
    try await Task.sleep(for: .milliseconds(700))

    session.pause()
    session.resume()
    let energy = HKQuantitySample(type: HKQuantityType(.activeEnergyBurned),
                                  quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 10),
                                  start: startDate, end: startDate.addingTimeInterval(0.001))
    try await builder.addSamples([energy])

    session.end()
    try await builder.endCollection(at: Date())
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }

    let average = workout.statistics(for: heartRateType)?.averageQuantity()?.doubleValue(for: beatsPerMinute)
    let energySum = workout.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?.doubleValue(for: .kilocalorie())
    let events = workout.workoutEvents?.map { "\($0.type)" }.joined(separator: ",") ?? ""
    try await Task.sleep(for: .milliseconds(100))  // the delegate's queue
    let states = manager.states.withLock { $0.map { "\($0)" }.joined(separator: ",") }
    print("workout \(workout.uuid.uuidString)")
    print("states \(states)")
    print("events \(events) \(manager.events.withLock { $0 })")
    print("collected \(manager.collected.withLock { $0.sorted().joined(separator: ",") })")
    print("energy \(workout.totalEnergyBurned?.doubleValue(for: .kilocalorie()) ?? -1) \(energySum ?? -1)")
    print("ok \(average.map { String(Int($0.rounded())) } ?? "none")")
}

/// Calls in states that do not allow them: the delegate hears `didFailWithError`, the state
/// stays; pause while paused is ignored, as HealthKit documents.
func illegalTransitions(_ healthStore: HKHealthStore) async throws {
    let manager = WorkoutManager()
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .walking
    let session = try HKWorkoutSession(healthStore: healthStore, configuration: configuration)
    session.delegate = manager
    session.pause()                      // not started: an error
    session.stopActivity(with: nil)      // not started: an error
    session.prepare()
    session.startActivity(with: Date())
    session.startActivity(with: Date())  // already running: an error
    session.pause()
    session.pause()                      // already paused: ignored
    session.end()
    session.resume()                     // ended: an error
    try await Task.sleep(for: .milliseconds(200))
    let states = manager.states.withLock { $0.map { "\($0)" }.joined(separator: ",") }
    print("states \(states)")
    print("ok \(manager.errors.withLock { $0.joined(separator: ",") }) \(session.state)")
}

/// iOS 16's model with a plain HKWorkoutBuilder: a swim-bike-run of three activities, each
/// ended before the next, then finished and fetched back.
func multiActivityWorkout(_ healthStore: HKHealthStore) async throws {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .swimBikeRun
    configuration.locationType = .outdoor
    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: .local())

    let start = Date().addingTimeInterval(-3600)
    try await builder.beginCollection(at: start)
    var activityStart = start
    for activityType in [HKWorkoutActivityType.swimming, .cycling, .running] {
        let activityConfiguration = HKWorkoutConfiguration()
        activityConfiguration.activityType = activityType
        if activityType == .swimming {
            activityConfiguration.swimmingLocationType = .openWater
        }
        let activity = HKWorkoutActivity(workoutConfiguration: activityConfiguration, start: activityStart, end: nil, metadata: nil)
        try await builder.addWorkoutActivity(activity)
        activityStart = activityStart.addingTimeInterval(1200)
        try await builder.updateActivity(uuid: activity.uuid, end: activityStart)
    }
    // An activity that overlaps the last one is refused.
    let overlapping = HKWorkoutActivity(workoutConfiguration: configuration, start: start, end: nil, metadata: nil)
    var refused = "accepted"
    do {
        try await builder.addWorkoutActivity(overlapping)
    } catch let error as HKError {
        refused = "\(error.code.rawValue)"
    }
    let strokes = HKQuantitySample(type: HKQuantityType(.swimmingStrokeCount), quantity: HKQuantity(unit: .count(), doubleValue: 300),
                                   start: start, end: start.addingTimeInterval(600))
    let flights = HKQuantitySample(type: HKQuantityType(.flightsClimbed), quantity: HKQuantity(unit: .count(), doubleValue: 4),
                                   start: start.addingTimeInterval(2400), end: start.addingTimeInterval(3000))
    try await builder.addSamples([strokes, flights])
    try await builder.addMetadata([HKMetadataKeyWorkoutBrandName: "Snippet"])
    try await builder.endCollection(at: start.addingTimeInterval(3600))
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }
    print("refused \(refused)")
    print("workout \(workout.uuid.uuidString) \(strokes.uuid.uuidString) \(flights.uuid.uuidString)")
    print("ok \(workout.workoutActivities.count) \(builder.elapsedTime(at: start.addingTimeInterval(1800)))")
}

/// Fetches this app's visible workouts and prints what HKWorkout holds of the builder's work.
func storedWorkouts(_ healthStore: HKHealthStore) async throws {
    let descriptor = HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\.startDate)])
    let workouts = try await descriptor.result(for: healthStore)
    for workout in workouts {
        let activities = workout.workoutActivities.map { activity in
            "\(activity.workoutConfiguration.activityType.rawValue):\(Int(activity.duration))"
        }.joined(separator: ",")
        let statistics = workout.allStatistics.keys.map(\.identifier).sorted().joined(separator: ",")
        print("workout \(workout.uuid.uuidString) activities \(activities.isEmpty ? "-" : activities) statistics \(statistics.isEmpty ? "-" : statistics)"
              + " strokes \(workout.totalSwimmingStrokeCount?.doubleValue(for: .count()) ?? -1)"
              + " flights \(workout.totalFlightsClimbed?.doubleValue(for: .count()) ?? -1)"
              + " indoor \((workout.metadata?[HKMetadataKeyIndoorWorkout] as? Bool).map { "\($0)" } ?? "-")")
    }
    print("ok \(workouts.count)")
}

/// A multisport session as watchOS 9 records it: beginNewActivity / endCurrentActivity(on:) on
/// the session, the live builder keeping the activities. Prints the delegates' activity calls
/// in order, the session's current activity between activities, and what was saved.
func sessionActivities(_ healthStore: HKHealthStore) async throws {
    let manager = WorkoutManager()
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .swimBikeRun
    configuration.locationType = .outdoor
    let session = try HKWorkoutSession(healthStore: healthStore, configuration: configuration)
    let builder = session.associatedWorkoutBuilder()
    session.delegate = manager
    builder.delegate = manager

    let start = Date().addingTimeInterval(-600)
    session.startActivity(with: start)
    try await builder.beginCollection(at: start)
    var next = start
    for activityType in [HKWorkoutActivityType.swimming, .running] {
        let activityConfiguration = HKWorkoutConfiguration()
        activityConfiguration.activityType = activityType
        session.beginNewActivity(configuration: activityConfiguration, date: next, metadata: nil)
        print("current \(session.currentActivity.workoutConfiguration.activityType.rawValue) \(builder.currentWorkoutActivity != nil)")
        next = next.addingTimeInterval(120)
        session.endCurrentActivity(on: next)
    }
    session.endCurrentActivity(on: next)   // nothing in progress: the delegate hears an error
    session.end()
    try await builder.endCollection(at: start.addingTimeInterval(600))
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }
    try await Task.sleep(for: .milliseconds(200))  // the delegates' queues
    print("calls \(manager.activityCalls.withLock { $0.joined(separator: ",") })")
    print("errors \(manager.errors.withLock { $0.joined(separator: ",") })")
    print("ok \(workout.workoutActivities.map { "\($0.workoutConfiguration.activityType.rawValue):\(Int($0.duration))" }.joined(separator: ","))")
}
