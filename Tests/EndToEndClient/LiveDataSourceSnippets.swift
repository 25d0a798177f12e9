import Foundation
import HealthKit

// `workout-snippet workout-data-source` of the scripted app: an HKLiveWorkoutDataSource changed
// as Apple documents (developer.apple.com/documentation/healthkit/hkliveworkoutdatasource:
// enableCollection(for:predicate:), disableCollection(for:), typesToCollect) — a custom type
// added with a predicate, a default type dropped. Checked by AppleSnippetTests+WorkoutRoutes.

/// Prints `types-default …` and `types-changed …` (typesToCollect before and after the
/// changes), starts collecting and announces `collecting START`, waits until heart rate
/// `untilHeartRate` and some cycling power arrived (another app saves them), ends and finishes,
/// then prints the builder's and the workout's statistics and `ok COLLECTED-TYPES`.
func liveDataSourceSnippet(_ healthStore: HKHealthStore, untilHeartRate: Double) async throws {
    let manager = WorkoutManager()
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .cycling
    configuration.locationType = .outdoor

    let session = try HKWorkoutSession(healthStore: healthStore, configuration: configuration)
    let builder = session.associatedWorkoutBuilder()
    let dataSource = HKLiveWorkoutDataSource(healthStore: healthStore, workoutConfiguration: configuration)
    print("types-default \(names(dataSource.typesToCollect))")

    // Cycling power at or above 200 W only; no active energy.
    let powerType = HKQuantityType(.cyclingPower)
    let strongEfforts = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo,
                                                            quantity: HKQuantity(unit: .watt(), doubleValue: 200))
    dataSource.enableCollection(for: powerType, predicate: strongEfforts)
    dataSource.disableCollection(for: HKQuantityType(.activeEnergyBurned))
    print("types-changed \(names(dataSource.typesToCollect))")

    builder.dataSource = dataSource
    session.delegate = manager
    builder.delegate = manager

    let startDate = Date()
    session.startActivity(with: startDate)
    try await builder.beginCollection(at: startDate)
    print("collecting \(startDate.timeIntervalSince1970)")
    fflush(nil)  // the test waits for this line

    let heartRateType = HKQuantityType(.heartRate)
    let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
        let latest = builder.statistics(for: heartRateType)?.mostRecentQuantity()?.doubleValue(for: beatsPerMinute)
        if latest == untilHeartRate, builder.statistics(for: powerType) != nil { break }
        try await Task.sleep(for: .milliseconds(20))
    }
    // What the data source should not collect has had its chance to arrive.
    try await Task.sleep(for: .milliseconds(700))

    session.end()
    try await builder.endCollection(at: Date())
    guard let workout = try await builder.finishWorkout() else { usage("finishWorkout returned nil") }

    let live = builder.statistics(for: powerType)
    print("power \(value(live?.averageQuantity(), .watt())) \(value(live?.minimumQuantity(), .watt())) "
          + "\(value(live?.maximumQuantity(), .watt()))")
    print("heart-rate \(value(builder.statistics(for: heartRateType)?.averageQuantity(), beatsPerMinute))")
    print("energy \(builder.statistics(for: HKQuantityType(.activeEnergyBurned)) == nil ? "none" : "collected")")
    print("workout-statistics \(names(Set(workout.allStatistics.keys)))")
    print("workout-power \(value(workout.statistics(for: powerType)?.averageQuantity(), .watt()))")
    print("ok \(manager.collected.withLock { $0.sorted().joined(separator: ",") })")
}

private func names(_ types: Set<HKQuantityType>) -> String {
    types.map { $0.identifier.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "") }.sorted().joined(separator: ",")
}

private func value(_ quantity: HKQuantity?, _ unit: HKUnit) -> String {
    quantity.map { String($0.doubleValue(for: unit)) } ?? "none"
}
