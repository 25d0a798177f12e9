import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `WorkoutValueScopes` in the store, one dimension at a time: a workout's total or statistic
/// is visible exactly where its type's scope would admit a sample with the workout's source
/// and start — per row under a window, per activity for the distance — and the predicate on
/// it agrees with what the decoded workout shows (a hidden value matches as an absent one,
/// its NOT included). The byte-level proof across every read kind is
/// `LeakProbeTests/WorkoutValueRedactionTests`.
@Suite(.timeLimit(.minutes(10))) struct WorkoutValueScopeStoreTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let reader = "org.example.reader"
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")
    static let own = SourceRecord(bundleIdentifier: reader, name: "Reader", version: "1")
    static let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    static func workout(_ activity: HKWorkoutActivityType, hour: Double) -> SampleRecord {
        let begin = start.addingTimeInterval(hour * 3600), end = begin.addingTimeInterval(1800)
        let statistics = [WorkoutStatisticsRecord(quantityType: energy, startDate: begin, endDate: end, sum: RecordedQuantity(300, unit: "kcal")),
                          WorkoutStatisticsRecord(quantityType: heartRate, startDate: begin, endDate: end,
                                                  average: RecordedQuantity(2, unit: "count/s"))]
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: begin, endDate: end,
                            value: .workout(WorkoutValue(activityType: activity.rawValue, duration: 1800,
                                                         totalEnergyBurned: RecordedQuantity(300, unit: "kcal"),
                                                         totalDistance: RecordedQuantity(5000, unit: "m"),
                                                         totalSwimmingStrokeCount: RecordedQuantity(40, unit: "count"),
                                                         totalFlightsClimbed: RecordedQuantity(3, unit: "count"), statistics: statistics)))
    }

    /// Workouts readable; the values under `values`.
    static func visibility(_ values: WorkoutValueScopes) -> Visibility {
        Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources, workoutValues: values)
    }

    static func read(_ database: HealthDatabase, _ visibility: Visibility, _ predicate: SamplePredicate? = nil) throws -> [UUID: WorkoutValue] {
        var found: [UUID: WorkoutValue] = [:]
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, predicate: predicate), scope: visibility) { records in
            for record in records { if case let .workout(value) = record.value { found[record.uuid] = value } }
        }
        return found
    }

    @Test func aWindowedEnergyGrantShowsEnergyOnlyOnWorkoutsInsideTheWindow() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.workout(.running, hour: 0), Self.workout(.running, hour: 2)], source: Self.other)
        let visibility = Self.visibility(WorkoutValueScopes(byType: [Self.energy: .recentWindow(appID: Self.reader, since: Self.start.addingTimeInterval(3600))],
                                                            others: .ownSamples(appID: Self.reader)))
        let workouts = try Self.read(database, visibility)
        let before = try #require(workouts[uuids[0]]), inside = try #require(workouts[uuids[1]])
        #expect(before.totalEnergyBurned == nil && before.statistics.isEmpty)
        #expect(inside.totalEnergyBurned?.value == 300 && inside.statistics.map(\.quantityType) == [Self.energy])
        // No other type is readable: distance, strokes, flights and heart rate are absent on both.
        for value in [before, inside] {
            #expect(value.totalDistance == nil && value.totalSwimmingStrokeCount == nil && value.totalFlightsClimbed == nil)
        }
        let over100 = SamplePredicate.workoutValue(.total(.energyBurned, .greaterThan, 100))
        #expect(try Set(Self.read(database, visibility, over100).keys) == [uuids[1]])
        #expect(try Set(Self.read(database, visibility, .not(over100)).keys) == [uuids[0]])
        let heartRateAverage = SamplePredicate.workoutValue(.statistic(WorkoutStatisticTest(quantityType: Self.heartRate, statistic: .average,
                                                                                              op: .greaterThan, value: 1)))
        #expect(try Self.read(database, visibility, heartRateAverage).isEmpty)
        #expect(try Set(Self.read(database, visibility, .not(heartRateAverage)).keys) == Set(uuids))
    }

    /// The total distance's type is the activity's: cycling distance for a ride, and both snow
    /// sports and walking/running distance for snowboarding (HealthKit's builder may sum either).
    @Test(arguments: [(HKWorkoutActivityType.cycling, [HKQuantityTypeIdentifier.distanceCycling], true),
                      (.cycling, [.distanceWalkingRunning], false),
                      (.running, [.distanceWalkingRunning], true),
                      (.snowboarding, [.distanceDownhillSnowSports], false),
                      (.snowboarding, [.distanceDownhillSnowSports, .distanceWalkingRunning], true)])
    func theDistanceFollowsTheActivitysDistanceType(activity: HKWorkoutActivityType, readable: [HKQuantityTypeIdentifier], visible: Bool) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuid = try await database.samples.insert([Self.workout(activity, hour: 0)], source: Self.other)[0]
        let visibility = Self.visibility(WorkoutValueScopes(byType: Dictionary(uniqueKeysWithValues: readable.map { ($0.rawValue, ReadScope.allSources) }),
                                                            others: .ownSamples(appID: Self.reader)))
        #expect(try (Self.read(database, visibility)[uuid]?.totalDistance != nil) == visible)
        let over1km = SamplePredicate.workoutValue(.total(.distance, .greaterThan, 1000))
        #expect(try Self.read(database, visibility, over1km).isEmpty != visible)
        #expect(try Self.read(database, visibility, .not(over1km)).isEmpty == visible)
    }

    @Test func theReadersOwnWorkoutsKeepEveryValue() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let saved = Self.workout(.running, hour: 0)
        let uuid = try await database.samples.insert([saved], source: Self.own)[0]
        let visibility = Self.visibility(WorkoutValueScopes(others: .ownSamples(appID: Self.reader)))
        guard case let .workout(expected) = saved.value else {
            Issue.record("not a workout")
            return
        }
        #expect(try Self.read(database, visibility)[uuid] == expected)
        #expect(try Self.read(database, visibility, .workoutValue(.total(.flightsClimbed, .equalTo, 3))).keys.first == uuid)
    }
}
