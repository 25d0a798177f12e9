import Foundation
import HealthKit

// Issue 15's workout sort keys as Apple's header names them (HKWorkout.h: "Sort Identifiers",
// HKWorkoutSortIdentifierDuration and its siblings), in the HKSampleQuery Apple shows with
// NSSortDescriptor(key:ascending:), and a typed HKSampleQueryDescriptor<HKWorkout> sorted by
// `\.duration`.

/// `workout-snippet workout-sort-save START MINUTES [--energy V:UNIT] [--distance V:UNIT]
/// [--strokes N | --flights N]`: saves a running workout of MINUTES from START (seconds since
/// 1970) with those totals, through the initializer Apple has for each (strokes and flights
/// have one each). Prints `ok UUID`.
func workoutSortSaveSnippet(_ healthStore: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 2, let start = Double(arguments[0]), let minutes = Double(arguments[1]) else {
        usage("workout-sort-save START MINUTES [options]")
    }
    let startDate = Date(timeIntervalSince1970: start), endDate = startDate.addingTimeInterval(minutes * 60)
    let energy = values(of: "--energy", in: arguments).first.map(quantity)
    let distance = values(of: "--distance", in: arguments).first.map(quantity)
    let count = { (flag: String) in values(of: flag, in: arguments).first.flatMap(Double.init).map { HKQuantity(unit: .count(), doubleValue: $0) } }
    let workout: HKWorkout
    if let flights = count("--flights") {
        workout = HKWorkout(activityType: .stairClimbing, start: startDate, end: endDate, workoutEvents: nil, totalEnergyBurned: energy,
                            totalDistance: distance, totalFlightsClimbed: flights, device: nil, metadata: nil)
    } else {
        workout = HKWorkout(activityType: .swimming, start: startDate, end: endDate, workoutEvents: nil, totalEnergyBurned: energy,
                            totalDistance: distance, totalSwimmingStrokeCount: count("--strokes"), device: nil, metadata: nil)
    }
    try await healthStore.save(workout)
    print("ok \(workout.uuid.uuidString)")
}

/// `workout-snippet workout-sort LIMIT [TYPE]`: for each workout sort key, ascending then
/// descending, one line `KEY asc|desc START…` (the start dates, seconds since 1970, in the order
/// the query returned them) or `KEY asc|desc error CODE`; then the typed descriptor sorted by
/// `\.duration` in reverse as `descriptor START…`. TYPE (default workouts) is the queried type.
func workoutSortSnippet(_ healthStore: HKHealthStore, _ arguments: [String]) async throws {
    let limit = arguments.first.flatMap(Int.init) ?? HKObjectQueryNoLimit
    let sampleType: HKSampleType = arguments.dropFirst().first.map { HKQuantityType(HKQuantityTypeIdentifier(rawValue: $0)) }
        ?? HKObjectType.workoutType()
    let keys = [HKWorkoutSortIdentifierDuration, HKWorkoutSortIdentifierTotalDistance, HKWorkoutSortIdentifierTotalEnergyBurned,
                HKWorkoutSortIdentifierTotalSwimmingStrokeCount, HKWorkoutSortIdentifierTotalFlightsClimbed]
    for key in keys {
        for ascending in [true, false] {
            let sortDescriptor = NSSortDescriptor(key: key, ascending: ascending)
            let outcome: Result<[HKSample], any Error> = await withCheckedContinuation { continuation in
                let query = HKSampleQuery(sampleType: sampleType, predicate: nil, limit: limit,
                                          sortDescriptors: [sortDescriptor]) { _, samples, error in
                    continuation.resume(returning: error.map { .failure($0) } ?? .success(samples ?? []))
                }
                healthStore.execute(query)
            }
            let direction = ascending ? "asc" : "desc"
            switch outcome {
            case let .success(samples):
                print(([key, direction] + samples.map { "\(Int($0.startDate.timeIntervalSince1970))" }).joined(separator: " "))
            case let .failure(error):
                print("\(key) \(direction) error \((error as? HKError)?.code.rawValue ?? -1)")
            }
        }
    }
    guard sampleType == HKObjectType.workoutType() else { return }
    let descriptor = HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: [SortDescriptor(\.duration, order: .reverse)],
                                             limit: limit == HKObjectQueryNoLimit ? nil : limit)
    let workouts = try await descriptor.result(for: healthStore)
    print((["descriptor"] + workouts.map { "\(Int($0.startDate.timeIntervalSince1970))" }).joined(separator: " "))
}
