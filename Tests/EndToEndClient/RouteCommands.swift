// e2e-client commands for workout routes (see main.swift's usage comment).
import Foundation
import HealthKit

private let routeStore = HKHealthStore()

/// `save-route WORKOUT COUNT [--offset S] [--step S] [--chunk N] [--latitude DEG] [--meta …]…`:
/// builds a route of COUNT generated locations starting OFFSET seconds into the workout, STEP
/// seconds apart, inserted CHUNK at a time, and finishes it. Prints `digest …` of what was
/// inserted, then `ok ROUTE_UUID COUNT`.
func saveRouteCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 3, let count = Int(arguments[2]) else { usage("save-route WORKOUT COUNT [options]") }
    let workout = try await fetchWorkout(arguments[1])
    let number = { (flag: String, fallback: Double) in values(of: flag, in: arguments).first.flatMap(Double.init) ?? fallback }
    let start = workout.startDate.addingTimeInterval(number("--offset", 0))
    let step = number("--step", 0.1)
    let latitude = number("--latitude", 46.5)
    let locations = (0..<count).map { generatedLocation($0, latitude: latitude, start: start, step: step) }
    let chunk = max(1, Int(number("--chunk", Double(max(count, 1)))))
    let device = HKDevice(name: "Phone", manufacturer: "Test", model: "P2", hardwareVersion: nil, firmwareVersion: nil,
                          softwareVersion: "3.1", localIdentifier: nil, udiDeviceIdentifier: nil)
    let builder = HKWorkoutRouteBuilder(healthStore: routeStore, device: device)
    for first in stride(from: 0, to: locations.count, by: chunk) {
        try await builder.insertRouteData(Array(locations[first..<min(locations.count, first + chunk)]))
    }
    print("digest \(digest(locations))")
    let route = try await builder.finishRoute(with: workout, metadata: metadata(in: arguments))
    print("ok \(route.uuid.uuidString) \(route.count)")
}

/// The `index`th location of a generated route: every field varies, so the digest covers all.
func generatedLocation(_ index: Int, latitude: Double, start: Date, step: TimeInterval) -> CLLocation {
    let offset = Double(index)
    let coordinate = CLLocationCoordinate2D(latitude: latitude + offset * 1e-6, longitude: 6.6 + Double(index % 977) * 1e-5)
    let verticalAccuracy: Double = index % 2 == 0 ? 4 : -1
    let speed: Double = index % 5 == 0 ? -1 : 2.75
    return CLLocation(coordinate: coordinate, altitude: 372 + Double(index % 50), horizontalAccuracy: 3 + Double(index % 7),
                      verticalAccuracy: verticalAccuracy, course: Double(index % 360), speed: speed,
                      timestamp: start.addingTimeInterval(offset * step))
}

/// `query-route WORKOUT [--async]`: for each route of the workout, a `route …` line, its
/// locations' `digest …` and `batches N` (with `HKWorkoutRouteQuery`) — or, with --async,
/// read with `HKWorkoutRouteQueryDescriptor`. Prints `ok ROUTES`.
func queryRouteCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 2 else { usage("query-route WORKOUT [--async]") }
    let workout = try await fetchWorkout(arguments[1])
    let descriptor = HKSampleQueryDescriptor(
        predicates: [.sample(type: HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObjects(from: workout))],
        sortDescriptors: [])
    let routes = try await descriptor.result(for: routeStore).compactMap { $0 as? HKWorkoutRoute }
    for route in routes {
        let device = route.device.map { "\($0.name ?? "-")/\($0.model ?? "-")/\($0.softwareVersion ?? "-")" } ?? "-"
        print("route \(route.uuid.uuidString) \(route.count) \(route.startDate.timeIntervalSince1970) \(route.endDate.timeIntervalSince1970) "
              + "\(route.sourceRevision.source.bundleIdentifier) \(device) \(text(route.metadata))")
        if arguments.contains("--async") {
            var locations: [CLLocation] = []
            for try await location in HKWorkoutRouteQueryDescriptor(route).results(for: routeStore) { locations.append(location) }
            print("digest \(digest(locations))")
        } else {
            let (locations, batches) = try await routeLocations(route)
            print("digest \(digest(locations))")
            print("batches \(batches)")
        }
    }
    print("ok \(routes.count)")
}

/// `insert-route LAT LON TIME`: one location into a new builder (for validation failures).
func insertRouteCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 4, let latitude = Double(arguments[1]), let longitude = Double(arguments[2]),
          let time = Double(arguments[3]) else { usage("insert-route LAT LON TIME") }
    let builder = HKWorkoutRouteBuilder(healthStore: routeStore, device: nil)
    try await builder.insertRouteData([CLLocation(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                                                  altitude: 0, horizontalAccuracy: 5, verticalAccuracy: 5,
                                                  timestamp: Date(timeIntervalSince1970: time))])
    print("ok inserted")
}

/// Every location of `route` through the handler-based query, and how many batches it took.
func routeLocations(_ route: HKWorkoutRoute) async throws -> ([CLLocation], Int) {
    try await withCheckedThrowingContinuation { continuation in
        let collected = LocationCollector()
        let query = HKWorkoutRouteQuery(route: route) { _, locations, done, error in
            if let error { return continuation.resume(throwing: error) }
            collected.add(locations ?? [])
            if done { continuation.resume(returning: collected.result) }
        }
        routeStore.execute(query)
    }
}

/// Collects batches handed to a query's handler (which may run on any thread).
final class LocationCollector: @unchecked Sendable {
    // @unchecked: the lock guards both fields.
    private let lock = NSLock()
    private var locations: [CLLocation] = []
    private var batches = 0

    func add(_ batch: [CLLocation]) {
        lock.withLock {
            locations += batch
            batches += 1
        }
    }

    var result: ([CLLocation], Int) { lock.withLock { (locations, batches) } }
}

/// Every field of every location, in order, as one FNV-1a hash plus the count: equal digests
/// mean the route came back exactly as inserted.
func digest(_ locations: [CLLocation]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for location in locations {
        let fields = [location.coordinate.latitude, location.coordinate.longitude, location.altitude, location.horizontalAccuracy,
                      location.verticalAccuracy, location.course, location.speed, location.timestamp.timeIntervalSince1970]
        for byte in fields.map({ String(format: "%.9f", $0) }).joined(separator: ",").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }
    return "\(locations.count):\(String(hash, radix: 16))"
}
