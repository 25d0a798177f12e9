import Foundation
import HealthKit

// `row-snippet kind-descriptors | route-rows COUNT`: rows of docs/healthkit-compatibility.md
// closed in session 10, each written as Apple's page shows it; only the `print` lines are the
// test's (AppleSnippetTests+CompatibilityRows).

/// developer.apple.com/documentation/healthkit/hksamplepredicate/stateofmind(_:) and
/// …/heartbeatseries(_:): saves a state of mind and a heartbeat series, then reads each kind back
/// through `HKSampleQueryDescriptor` with Apple's factory — as that kind's class, with its values.
/// Prints `mind KIND VALENCE`, `series COUNT`, then `ok MINDS SERIES`.
func kindDescriptorsSnippet(_ healthStore: HKHealthStore) async throws {
    let mood = HKStateOfMind(date: Date(), kind: .dailyMood, valence: 0.25, labels: [.content], associations: [.fitness],
                             metadata: nil)
    try await healthStore.save(mood)
    let builder = HKHeartbeatSeriesBuilder(healthStore: healthStore, device: nil, start: Date().addingTimeInterval(-60))
    for beat in [0.5, 1.25, 2.0] {
        try await builder.addHeartbeat(at: beat, precededByGap: false)
    }
    _ = try await builder.finishSeries()

    let minds = try await HKSampleQueryDescriptor(predicates: [.stateOfMind()], sortDescriptors: []).result(for: healthStore)
    for mind in minds { print("mind \(mind.kind.rawValue) \(mind.valence)") }
    let series = try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: [SortDescriptor(\.startDate)])
        .result(for: healthStore)
    for sample in series { print("series \(sample.count)") }
    print("ok \(minds.count) \(series.count)")
}

/// developer.apple.com/documentation/healthkit/hkworkoutroutebuilder/addmetadata(_:completion:)
/// and …/hkworkoutroutequery/init(route:dateinterval:datahandler:) (iOS 15.4): the route builder
/// of Apple's "Creating a workout route" article, with metadata added while recording and at the
/// finish (the finish's value wins for the same key), then the route read back for a ten-second
/// window with the query and its descriptor. Prints `metadata K=V …` (the app's own keys),
/// `window DIGEST` (what the query read), `expected DIGEST` (the inserted locations inside the
/// window), `descriptor DIGEST`, `late-metadata refused CODE`, then `ok LOCATIONS WINDOW`.
func routeRowsSnippet(_ healthStore: HKHealthStore, count: Int) async throws {
    let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - Double(count) - 10).rounded(.down))
    let workout = HKWorkout(activityType: .hiking, start: start, end: start.addingTimeInterval(Double(count) + 2))
    try await healthStore.save(workout)

    let routeBuilder = HKWorkoutRouteBuilder(healthStore: healthStore, device: nil)
    let locations = (0..<count).map { generatedLocation($0, latitude: 45.9, start: start.addingTimeInterval(1), step: 1) }
    try await routeBuilder.insertRouteData(locations)
    try await routeBuilder.addMetadata(["org.test.trail": "ridge", "org.test.weather": "rain"])
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        routeBuilder.addMetadata(["org.test.group": "north"]) { success, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
    let route = try await routeBuilder.finishRoute(with: workout, metadata: ["org.test.weather": "sunny"])
    let fetched = try await HKSampleQueryDescriptor(
        predicates: [.sample(type: HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObject(with: route.uuid))],
        sortDescriptors: []).result(for: healthStore)
    let own = (fetched.first?.metadata ?? [:]).filter { $0.key.hasPrefix("org.test.") }
    print("metadata " + own.keys.sorted().map { "\($0)=\(own[$0].map { "\($0)" } ?? "")" }.joined(separator: " "))

    // Locations are one second apart from start+1: the window [start+10, start+19] holds
    // indices 9…18, both bounds included.
    let window = DateInterval(start: start.addingTimeInterval(10), end: start.addingTimeInterval(19))
    let read: [CLLocation] = try await withCheckedThrowingContinuation { continuation in
        let collected = LocationCollector()
        let query = HKWorkoutRouteQuery(route: route, dateInterval: window) { _, batch, done, error in
            if let error { return continuation.resume(throwing: error) }
            collected.add(batch ?? [])
            if done { continuation.resume(returning: collected.result.0) }
        }
        healthStore.execute(query)
    }
    print("window \(digest(read))")
    print("expected \(digest(locations.filter { window.contains($0.timestamp) }))")
    var described: [CLLocation] = []
    for try await location in HKWorkoutRouteQueryDescriptor(route, dateInterval: window).results(for: healthStore) {
        described.append(location)
    }
    print("descriptor \(digest(described))")
    do {
        try await routeBuilder.addMetadata(["org.test.late": true])
        print("late-metadata accepted")
    } catch let error as HKError {
        print("late-metadata refused \(error.code.rawValue)")
    }
    print("ok \(route.count) \(read.count)")
}
