import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Red team, session 23, F4: a workout's statistics are values of their quantity types, so a
/// save carrying them needs share permission for each type, as a correlation needs it for the
/// types it holds (`SampleRecord.forEachShareTypeIdentifier`). Before, an app allowed to write
/// workouts and nothing else stored a heart-rate average, minimum and maximum (and any other
/// type's statistics) that every reader of heart rate then read under its name. In HealthKit a
/// workout's statistics come from `HKWorkoutBuilder`, computed from the samples added to it, and
/// saving those samples needs share permission for their types ("The user hasn't given the app
/// permission to save data. This error occurs only when your app attempts to save data":
/// developer.apple.com/documentation/healthkit/hkerror/code/errorauthorizationdenied).
@Suite(.timeLimit(.minutes(10))) struct WorkoutStatisticsShareEndToEndTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let activeEnergy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func heartRateStatistics() -> WorkoutStatisticsRecord {
        WorkoutStatisticsRecord(quantityType: heartRate, startDate: start, endDate: start.addingTimeInterval(600),
                                average: RecordedQuantity(188, unit: "count/min"), minimum: RecordedQuantity(120, unit: "count/min"),
                                maximum: RecordedQuantity(231, unit: "count/min"))
    }

    /// A run of ten minutes: the workout's statistics, or one activity's, or totals only.
    static func workout(statistics: [WorkoutStatisticsRecord] = [], activityStatistics: [WorkoutStatisticsRecord]? = nil,
                        energy: RecordedQuantity? = nil, distance: RecordedQuantity? = nil) -> SampleRecord {
        var value = WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 600,
                                 totalEnergyBurned: energy, totalDistance: distance)
        value.statistics = statistics
        if let activityStatistics {
            value.activities = [WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.running.rawValue, locationType: 1,
                                                      swimmingLocationType: 0, startDate: start, endDate: start.addingTimeInterval(600),
                                                      statistics: activityStatistics)]
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start,
                            endDate: start.addingTimeInterval(600), value: .workout(value))
    }

    /// The writer may share workouts; heart rate and active energy it may not (refused by the
    /// user, so the refusal is errorAuthorizationDenied rather than not-determined).
    func workoutsOnlyWriter(_ broker: BrokerProcess, _ appID: String) async throws -> RawApp {
        let app = try await RawApp.install(appID, on: broker, grants: [("share", HKWorkoutTypeIdentifier)])
        for type in [Self.heartRate, Self.activeEnergy] { try await broker.set(appID, "share", type, allowed: false) }
        return app
    }

    func expectRefusedNamingHeartRate(_ status: RPCStatus?, _ what: String) {
        #expect(status?.healthKitCode == .errorAuthorizationDenied, "\(what): \(String(describing: status))")
        #expect(status?.message.contains(Self.heartRate) == true, "\(what): \(String(describing: status))")
    }

    @Test func statisticsOfATypeTheAppMayNotShareAreRefusedNamingTheType() async throws {
        let broker = try BrokerProcess()
        let writer = "org.test.workouts-only"
        let app = try await workoutsOnlyWriter(broker, writer)
        defer { app.close() }
        expectRefusedNamingHeartRate(await app.saveRefusal([Self.workout(statistics: [Self.heartRateStatistics()])]),
                                     "the workout's statistics")
        expectRefusedNamingHeartRate(await app.saveRefusal([Self.workout(activityStatistics: [Self.heartRateStatistics()])]),
                                     "an activity's statistics")
        // Behind a plain workout of the same save: a run of one type is not judged by its first.
        expectRefusedNamingHeartRate(await app.saveRefusal([Self.workout(), Self.workout(statistics: [Self.heartRateStatistics()])]),
                                     "the second workout of a save")

        // With share permission for heart rate, the same save is stored and read back with it
        // (by the writer: one process is one app here).
        try await broker.set(writer, "share", Self.heartRate, allowed: true)
        #expect(try await app.save([Self.workout(statistics: [Self.heartRateStatistics()])]).count == 1)
        for type in [HKWorkoutTypeIdentifier, Self.heartRate] { try await broker.set(writer, "read", type, allowed: true) }
        let stored = try await app.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier))
        #expect(stored.count == 1, "only the save with share permission was stored: \(stored)")
        guard case let .workout(workout) = stored.first?.value else {
            Issue.record("no workout read back: \(stored)")
            return
        }
        #expect(workout.statistics.map(\.quantityType) == [Self.heartRate])
        #expect(stored.first?.source?.bundleIdentifier == writer)
    }

    /// The totals are the workout's own fields: HealthKit's workout initializers take
    /// `totalEnergyBurned` and `totalDistance` with the workout (developer.apple.com/documentation/
    /// healthkit/hkworkout/init(activitytype:start:end:workoutevents:totalenergyburned:totaldistance:metadata:)),
    /// and "adding samples to the workout does not change any of the workout's properties"
    /// (developer.apple.com/documentation/healthkit/adding-samples-to-a-workout). They need the
    /// workout's share permission only, as in HealthKit.
    @Test func totalsNeedOnlyTheWorkoutsSharePermission() async throws {
        let broker = try BrokerProcess()
        let app = try await workoutsOnlyWriter(broker, "org.test.workout-totals")
        defer { app.close() }
        let saved = try await app.save([Self.workout(energy: RecordedQuantity(400, unit: "kcal"), distance: RecordedQuantity(5_000, unit: "m"))])
        #expect(saved.count == 1)
    }

    /// A save while the store is locked is checked by the same `SaveRequest` before anything is
    /// journaled: refused the same way, and nothing arrives at unlock.
    @Test func aSaveWhileLockedIsRefusedTheSameWay() async throws {
        let broker = try BrokerProcess()
        let app = try await workoutsOnlyWriter(broker, "org.test.workout-locked-stats")
        defer { app.close() }
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        expectRefusedNamingHeartRate(await app.saveRefusal([Self.workout(statistics: [Self.heartRateStatistics()])]), "while locked")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        try await broker.set("org.test.workout-locked-stats", "read", HKWorkoutTypeIdentifier, allowed: true)
        #expect(try await app.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier)).isEmpty)
    }
}
