// e2e-client commands for workouts, routes and deletion (see main.swift's usage comment).
// Objects are named by UUID on the command line; each command fetches what it needs through
// the SDK first, as a separate app process would.
import Foundation
import HealthKit

/// The store these commands use (every HKHealthStore shares the process's connection).
private let workoutStore = HKHealthStore()

/// `save-workout ACTIVITY START END [--duration S] [--energy V:UNIT] [--distance V:UNIT]
/// [--event TYPE:START:END]… [--device NAME] [--meta …]…`
func saveWorkoutCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 4, let raw = UInt(arguments[1]), let activity = HKWorkoutActivityType(rawValue: raw),
          let start = Double(arguments[2]), let end = Double(arguments[3]) else {
        usage("save-workout ACTIVITY START END [options]")
    }
    let events = values(of: "--event", in: arguments).map { text -> HKWorkoutEvent in
        let parts = text.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3, let type = HKWorkoutEventType(rawValue: Int(parts[0])) else { usage("--event TYPE:START:END") }
        return HKWorkoutEvent(type: type, dateInterval: DateInterval(start: Date(timeIntervalSince1970: parts[1]),
                                                                    end: Date(timeIntervalSince1970: max(parts[1], parts[2]))),
                              metadata: ["org.test.event": "e\(Int(parts[0]))"])
    }
    let startDate = Date(timeIntervalSince1970: start), endDate = Date(timeIntervalSince1970: end)
    let energy = values(of: "--energy", in: arguments).first.map(quantity)
    let distance = values(of: "--distance", in: arguments).first.map(quantity)
    let device = values(of: "--device", in: arguments).first.map {
        HKDevice(name: $0, manufacturer: "Test", model: "T1", hardwareVersion: nil, firmwareVersion: nil,
                 softwareVersion: "2.0", localIdentifier: nil, udiDeviceIdentifier: nil)
    }
    let workout: HKWorkout
    if let duration = values(of: "--duration", in: arguments).first.flatMap(Double.init) {
        workout = HKWorkout(activityType: activity, start: startDate, end: endDate, duration: duration,
                            totalEnergyBurned: energy, totalDistance: distance, device: device, metadata: metadata(in: arguments))
    } else {
        workout = HKWorkout(activityType: activity, start: startDate, end: endDate, workoutEvents: events.isEmpty ? nil : events,
                            totalEnergyBurned: energy, totalDistance: distance, device: device, metadata: metadata(in: arguments))
    }
    try await workoutStore.save(workout)
    print("ok \(workout.uuid.uuidString)")
}

/// `query-workouts [--activity RAW]`: one `workout …` line per workout (see `describe`).
func queryWorkoutsCommand(_ arguments: [String]) async throws {
    let predicate = values(of: "--activity", in: arguments).first.flatMap(UInt.init)
        .flatMap(HKWorkoutActivityType.init(rawValue:)).map(HKQuery.predicateForWorkouts(with:))
    let descriptor = HKSampleQueryDescriptor(predicates: [.workout(predicate)], sortDescriptors: [SortDescriptor(\.startDate)])
    let workouts = try await descriptor.result(for: workoutStore)
    for workout in workouts { print(describe(workout)) }
    print("ok \(workouts.count)")
}

/// `add-to-workout WORKOUT TYPE SAMPLE…`: fetches the workout and the samples, then associates them.
func addToWorkoutCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 4, let sampleType = type(arguments[2]) as? HKSampleType else { usage("add-to-workout WORKOUT TYPE SAMPLE…") }
    let workout = try await fetchWorkout(arguments[1])
    let samples = try await fetch(sampleType, Array(arguments[3...]))
    try await workoutStore.add(samples, to: workout)
    print("ok \(samples.count)")
}

/// `workout-with-steps START END N [--route COUNT]`: saves a running workout from START to END and N step-count
/// samples inside it, then adds the samples to it — the objects it holds, no query, as a
/// workout app does while the device is locked. Prints `ok WORKOUT SAMPLE…`.
func workoutWithStepsCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 4, let start = Double(arguments[1]), let end = Double(arguments[2]), let count = Int(arguments[3]),
          count > 0, end > start else {
        usage("workout-with-steps START END N")
    }
    let workout = HKWorkout(activityType: .running, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
    try await workoutStore.save(workout)
    let step = (end - start) / Double(count)
    let samples = (0..<count).map { index in
        let sampleStart = Date(timeIntervalSince1970: start + Double(index) * step)
        return HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                start: sampleStart, end: sampleStart.addingTimeInterval(step))
    }
    try await workoutStore.save(samples)
    try await workoutStore.add(samples, to: workout)
    // With --route COUNT: a route of COUNT locations through the workout, built with the
    // workout object held here (printed as `route UUID COUNT START END`).
    if let routeCount = values(of: "--route", in: arguments).first.flatMap(Int.init), routeCount > 0 {
        let builder = HKWorkoutRouteBuilder(healthStore: workoutStore, device: nil)
        let locationStep = (end - start) / Double(routeCount + 1)
        let locations = (0..<routeCount).map {
            generatedLocation($0, latitude: 46.5, start: workout.startDate.addingTimeInterval(locationStep), step: locationStep)
        }
        try await builder.insertRouteData(Array(locations.prefix(routeCount / 2)))
        try await builder.insertRouteData(Array(locations.dropFirst(routeCount / 2)))
        let route = try await builder.finishRoute(with: workout, metadata: nil)
        print("route \(route.uuid.uuidString) \(route.count) \(route.startDate.timeIntervalSince1970) \(route.endDate.timeIntervalSince1970)")
    }
    print("ok \(([workout.uuid] + samples.map(\.uuid)).map(\.uuidString).joined(separator: " "))")
}

/// `query-associated WORKOUT TYPE`: `sample UUID` lines for the samples of TYPE associated with it.
func queryAssociatedCommand(_ arguments: [String]) async throws {
    guard arguments.count >= 3, let sampleType = type(arguments[2]) as? HKSampleType else { usage("query-associated WORKOUT TYPE") }
    let workout = try await fetchWorkout(arguments[1])
    let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: sampleType, predicate: HKQuery.predicateForObjects(from: workout))],
                                             sortDescriptors: [SortDescriptor(\.startDate)])
    let samples = try await descriptor.result(for: workoutStore)
    for sample in samples { print("sample \(sample.uuid.uuidString) \(sample.sourceRevision.source.bundleIdentifier)") }
    print("ok \(samples.count)")
}

func fetchWorkout(_ uuidText: String) async throws -> HKWorkout {
    guard let workout = try await fetch(HKObjectType.workoutType(), [uuidText]).first as? HKWorkout else {
        print("error notfound no workout \(uuidText) is visible to this app")
        exit(3)
    }
    return workout
}

/// The samples of `type` with these UUIDs that this app can see.
func fetch(_ type: HKSampleType, _ uuidTexts: [String]) async throws -> [HKSample] {
    let uuids = Set(uuidTexts.map { text in
        guard let uuid = UUID(uuidString: text) else { usage("not a UUID: \(text)") }
        return uuid
    })
    let descriptor = HKSampleQueryDescriptor(predicates: [.sample(type: type, predicate: HKQuery.predicateForObjects(with: uuids))],
                                             sortDescriptors: [])
    return try await descriptor.result(for: workoutStore)
}

/// `workout UUID START END ACTIVITY DURATION ENERGY_KCAL DISTANCE_M EVENTS SOURCE VERSION DEVICE META`:
/// every field the workout carries, so two apps' views can be compared line for line.
func describe(_ workout: HKWorkout) -> String {
    let events = (workout.workoutEvents ?? []).map { event in
        "\(event.type.rawValue)@\(event.dateInterval.start.timeIntervalSince1970)+\(event.dateInterval.duration)"
            + "[\(text(event.metadata))]"
    }
    let fields: [String] = [
        "workout", workout.uuid.uuidString, "\(workout.startDate.timeIntervalSince1970)", "\(workout.endDate.timeIntervalSince1970)",
        "\(workout.workoutActivityType.rawValue)", "\(workout.duration)",
        workout.totalEnergyBurned.map { "\($0.doubleValue(for: .kilocalorie()))" } ?? "-",
        workout.totalDistance.map { "\($0.doubleValue(for: .meter()))" } ?? "-",
        events.isEmpty ? "-" : events.joined(separator: ","),
        workout.sourceRevision.source.bundleIdentifier, workout.sourceRevision.version ?? "-",
        workout.device.map { "\($0.name ?? "-")/\($0.manufacturer ?? "-")/\($0.model ?? "-")/\($0.softwareVersion ?? "-")" } ?? "-",
        text(workout.metadata),
    ]
    return fields.joined(separator: " ")
}

/// Metadata as sorted `key=value` pairs; quantities as `value unit`.
func text(_ metadata: [String: Any]?) -> String {
    guard let metadata, !metadata.isEmpty else { return "-" }
    return metadata.keys.sorted().map { key in
        let value = metadata[key]!
        if let quantity = value as? HKQuantity { return "\(key)=\(quantity.doubleValue(for: quantity.unit))\(quantity.unit.unitString)" }
        if let date = value as? Date { return "\(key)=@\(date.timeIntervalSince1970)" }
        return "\(key)=\(value)"
    }.joined(separator: ";")
}

/// `VALUE:UNIT` as a quantity.
func quantity(_ text: String) -> HKQuantity {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2, let value = Double(parts[0]) else { usage("quantity as VALUE:UNIT, got \(text)") }
    return HKQuantity(unit: HKUnit(from: parts[1]), doubleValue: value)
}
