import Foundation
import HealthKit

// `workout-snippet workout-route…` of the scripted app: a watch route recorder written as
// Apple documents it (developer.apple.com/documentation/healthkit/creating-a-workout-route and
// HKWorkoutBuilder.seriesBuilder(for:)): the route builder comes from the workout builder,
// locations go in as they arrive, and the workout builder finishes the route. Checked by
// AppleSnippetTests+WorkoutRoutes.

/// `workout-route live|plain COUNT`: records COUNT locations, one a second, into the route
/// builder of a live (session) or plain workout builder, ends and finishes the workout without
/// calling finishRoute, then reads the workout's routes back. Prints what it saw, then
/// `ok ROUTES LOCATIONS SAME-ROUTE-FROM-FINISHROUTE`.
func workoutRouteSnippet(_ healthStore: HKHealthStore, live: Bool, count: Int) async throws {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .running
    configuration.locationType = .outdoor
    let start = wholeSecondsAgo(Double(count) + 10)

    let builder: HKWorkoutBuilder
    let session: HKWorkoutSession?
    if live {
        let liveSession = try HKWorkoutSession(healthStore: healthStore, configuration: configuration)
        let liveBuilder = liveSession.associatedWorkoutBuilder()
        liveBuilder.dataSource = HKLiveWorkoutDataSource(healthStore: healthStore, workoutConfiguration: configuration)
        liveSession.startActivity(with: start)
        builder = liveBuilder
        session = liveSession
    } else {
        builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: .local())
        session = nil
    }
    try await builder.beginCollection(at: start)

    guard let routeBuilder = builder.seriesBuilder(for: .workoutRoute()) as? HKWorkoutRouteBuilder else {
        usage("seriesBuilder(for: .workoutRoute()) is not an HKWorkoutRouteBuilder")
    }
    print("same-builder \(builder.seriesBuilder(for: .workoutRoute()) === routeBuilder)")
    print("heartbeat-builder \(builder.seriesBuilder(for: .heartbeat()).map { "\(type(of: $0))" } ?? "nil")")

    // CLLocationManagerDelegate.locationManager(_:didUpdateLocations:) hands over small batches.
    let locations = (0..<count).map { generatedLocation($0, latitude: 46.5, start: start.addingTimeInterval(1), step: 1) }
    for first in stride(from: 0, to: locations.count, by: 10) {
        try await routeBuilder.insertRouteData(Array(locations[first..<min(locations.count, first + 10)]))
    }
    print("digest \(digest(locations))")
    // A fix from before the workout began: refused at once, the rest of the route unaffected.
    do {
        try await routeBuilder.insertRouteData([generatedLocation(0, latitude: 46.5, start: start.addingTimeInterval(-60), step: 1)])
        print("early accepted")
    } catch let error as HKError {
        print("early refused \(error.code.rawValue)")
    }

    session?.end()
    try await builder.endCollection(at: start.addingTimeInterval(Double(count) + 2))
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }
    print("workout \(workout.uuid.uuidString)")

    // HKSamplePredicate.workoutRoute(_:) types the results (developer.apple.com/documentation/
    // healthkit/hksamplepredicate/workoutroute(_:)): no cast from HKSample.
    let descriptor = HKSampleQueryDescriptor(
        predicates: [.workoutRoute(HKQuery.predicateForObjects(from: workout))],
        sortDescriptors: [])
    let routes: [HKWorkoutRoute] = try await descriptor.result(for: healthStore)
    for route in routes {
        let (read, _) = try await routeLocations(route)
        print("route \(route.uuid.uuidString) \(route.count) device \(route.device?.name ?? "-")")
        print("read \(digest(read))")
    }
    // The order Apple's "Creating a workout route" article shows (finish the workout, then the
    // route) gets the route the workout builder finished.
    let again = try await routeBuilder.finishRoute(with: workout, metadata: nil)
    // The builder is finished: more locations are refused.
    var late = "accepted"
    do {
        try await routeBuilder.insertRouteData([locations[0]])
    } catch let error as HKError {
        late = "refused \(error.code.rawValue)"
    }
    print("late \(late)")
    print("ok \(routes.count) \(routes.first?.count ?? 0) \(again.uuid == routes.first?.uuid)")
}

/// `workout-route-retry COUNT`: the app may save routes but not (yet) workouts. It records a
/// route with a plain workout builder; finishWorkout is refused, so it prints `refused CODE`,
/// how many routes it can see (`routes-after-refusal N`), then `refused`, and calls
/// finishWorkout again every 100 ms until it succeeds (the test grants workouts meanwhile) or
/// 60 s pass. Prints `ok ROUTES LOCATIONS` of the saved workout.
func workoutRouteRetrySnippet(_ healthStore: HKHealthStore, count: Int) async throws {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .cycling
    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: nil)
    let start = wholeSecondsAgo(Double(count) + 10)
    try await builder.beginCollection(at: start)
    guard let routeBuilder = builder.seriesBuilder(for: .workoutRoute()) as? HKWorkoutRouteBuilder else {
        usage("seriesBuilder(for: .workoutRoute()) is not an HKWorkoutRouteBuilder")
    }
    let locations = (0..<count).map { generatedLocation($0, latitude: 46.5, start: start.addingTimeInterval(1), step: 1) }
    try await routeBuilder.insertRouteData(locations)
    print("digest \(digest(locations))")
    try await builder.endCollection(at: start.addingTimeInterval(Double(count) + 2))

    var workout: HKWorkout?
    var announced = false
    let deadline = Date().addingTimeInterval(60)
    while workout == nil, Date() < deadline {
        do {
            workout = try await builder.finishWorkout()
        } catch let error as HKError where !announced {
            let routeQuery = HKSampleQueryDescriptor(predicates: [.sample(type: HKSeriesType.workoutRoute(), predicate: nil)],
                                                     sortDescriptors: [])
            print("refused-code \(error.code.rawValue)")
            print("routes-after-refusal \(try await routeQuery.result(for: healthStore).count)")
            print("refused")
            fflush(nil)  // the test waits for this line
            announced = true
        } catch {
            try await Task.sleep(for: .milliseconds(100))
        }
    }
    guard let workout else { usage("finishWorkout never succeeded") }
    // HKSamplePredicate.workoutRoute(_:) types the results (developer.apple.com/documentation/
    // healthkit/hksamplepredicate/workoutroute(_:)): no cast from HKSample.
    let descriptor = HKSampleQueryDescriptor(
        predicates: [.workoutRoute(HKQuery.predicateForObjects(from: workout))],
        sortDescriptors: [])
    let routes: [HKWorkoutRoute] = try await descriptor.result(for: healthStore)
    for route in routes {
        let (read, _) = try await routeLocations(route)
        print("read \(digest(read))")
    }
    print("ok \(routes.count) \(routes.first?.count ?? 0)")
}

/// `workout-route-refused COUNT`: records a route with a plain workout builder, prints
/// `inserted`, waits until sharing routes is denied (the test revokes it), finishes the
/// workout — saved, its route refused: `first refused CODE` — prints `route-refused`, waits
/// until sharing routes is granted again and calls finishWorkout() once more. Prints
/// `ok WORKOUTS ROUTES LOCATIONS` of what the app's store then holds.
func workoutRouteRefusedSnippet(_ healthStore: HKHealthStore, count: Int) async throws {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .walking
    let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: nil)
    let start = wholeSecondsAgo(Double(count) + 10)
    try await builder.beginCollection(at: start)
    guard let routeBuilder = builder.seriesBuilder(for: .workoutRoute()) as? HKWorkoutRouteBuilder else {
        usage("seriesBuilder(for: .workoutRoute()) is not an HKWorkoutRouteBuilder")
    }
    let locations = (0..<count).map { generatedLocation($0, latitude: 46.5, start: start.addingTimeInterval(1), step: 1) }
    try await routeBuilder.insertRouteData(locations)
    try await builder.endCollection(at: start.addingTimeInterval(Double(count) + 2))
    print("inserted")
    fflush(nil)  // the test waits for this line

    try await waitForRouteSharing(healthStore, .sharingDenied)
    do {
        _ = try await builder.finishWorkout()
        print("first accepted")
    } catch let error as HKError {
        print("first refused \(error.code.rawValue)")
    }
    print("route-refused")
    fflush(nil)  // the test waits for this line

    try await waitForRouteSharing(healthStore, .sharingAuthorized)
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }
    let workouts = try await HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: []).result(for: healthStore)
    let routes = try await HKSampleQueryDescriptor(
        predicates: [.sample(type: HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObjects(from: workout))],
        sortDescriptors: []).result(for: healthStore).compactMap { $0 as? HKWorkoutRoute }
    print("same-workout \(workouts.map(\.uuid) == [workout.uuid])")
    print("ok \(workouts.count) \(routes.count) \(routes.first?.count ?? 0)")
}

/// Polls healthd (authorizationStatus asks it each time) until sharing routes is `status`, for
/// at most 60 s.
private func waitForRouteSharing(_ healthStore: HKHealthStore, _ status: HKAuthorizationStatus) async throws {
    let deadline = Date().addingTimeInterval(60)
    while healthStore.authorizationStatus(for: HKSeriesType.workoutRoute()) != status {
        guard Date() < deadline else { usage("route sharing never became \(status.rawValue)") }
        try await Task.sleep(for: .milliseconds(50))
    }
}

/// Whole seconds, so the locations' times survive healthd's microseconds unchanged in `digest`.
private func wholeSecondsAgo(_ seconds: TimeInterval) -> Date {
    Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - seconds).rounded(.down))
}
