import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The total distance of another app's workout, for a reader allowed workouts and every distance
/// type but one, generated over every activity with a documented distance type and over
/// multisport workouts: the distance must look absent — decoded, matched (its NOT included) and
/// sorted by — exactly where it is derived from the type the reader may not read (DESIGN.md
/// §7.3: as if the other app had saved the workout without it), and present where it is not.
/// `WorkoutValueTypesTests` holds the documented pairs; `LeakProbeTests/WorkoutValueRedactionTests`
/// compares the bytes through healthd.
@Suite(.timeLimit(.minutes(10))) struct WorkoutDistanceScopeStoreTests {
    static let reader = "org.example.reader"
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")
    static let distanceTypes = HKObjectType.allTypes.compactMap { ($0 as? HKQuantityType)?.identifier }
        .filter { $0.hasPrefix("HKQuantityTypeIdentifierDistance") }

    /// A workout of `activity` (raw value) holding `legs` as activities, with a 5 km distance.
    static func workout(_ activity: HKWorkoutActivityType, legs: [HKWorkoutActivityType] = []) -> SampleRecord {
        let start = WorkoutValueScopeStoreTests.start
        let activities = legs.enumerated().map { index, leg in
            WorkoutActivityRecord(uuid: UUID(), activityType: leg.rawValue, locationType: HKWorkoutSessionLocationType.outdoor.rawValue,
                                  swimmingLocationType: leg == .swimming ? HKWorkoutSwimmingLocationType.openWater.rawValue : 0,
                                  startDate: start.addingTimeInterval(Double(index) * 600),
                                  endDate: start.addingTimeInterval(Double(index + 1) * 600))
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(1800),
                            value: .workout(WorkoutValue(activityType: activity.rawValue, duration: 1800,
                                                         totalDistance: RecordedQuantity(5000, unit: "m"), activities: activities)))
    }

    /// One workout per case: the distance types it is derived from, per Apple's documentation of
    /// each type (the multisport ones: every leg's).
    static let cases: [(name: String, workout: SampleRecord, derivedFrom: [HKQuantityTypeIdentifier])] = [
        ("rowing", workout(.rowing), [.distanceRowing]),
        ("paddling", workout(.paddleSports), [.distancePaddleSports]),
        ("skating", workout(.skatingSports), [.distanceSkatingSports]),
        // Its iOS 18 type, and the types its distance was recorded as before (snow sports, as
        // downhill skiing, may sum walking/running distance too): every one must be readable.
        ("cross-country skiing", workout(.crossCountrySkiing), [.distanceCrossCountrySkiing, .distanceDownhillSnowSports, .distanceWalkingRunning]),
        ("snowboarding", workout(.snowboarding), [.distanceDownhillSnowSports, .distanceWalkingRunning]),
        ("cycling", workout(.cycling), [.distanceCycling]),
        ("running", workout(.running), [.distanceWalkingRunning]),
        ("triathlon", workout(.swimBikeRun, legs: [.swimming, .cycling, .running]),
         [.distanceSwimming, .distanceCycling, .distanceWalkingRunning]),
        ("a run with a ride in it", workout(.running, legs: [.running, .cycling]), [.distanceWalkingRunning, .distanceCycling]),
        ("a ride with a row in it", workout(.cycling, legs: [.cycling, .rowing]), [.distanceCycling, .distanceRowing]),
    ]

    struct Cell: CustomTestStringConvertible, Sendable {
        let index: Int
        /// The one distance type the reader may not read (nil: it may read them all).
        let denied: String?
        var testDescription: String { "\(WorkoutDistanceScopeStoreTests.cases[index].name), denied \(denied ?? "nothing")" }
    }

    /// Every case × (nothing denied, and each distance type denied in turn).
    static let cells: [Cell] = cases.indices.flatMap { index in
        [Cell(index: index, denied: nil)] + distanceTypes.map { Cell(index: index, denied: $0) }
    }

    @Test func aDistanceIsVisibleExactlyWhereEveryTypeItDerivesFromIs() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert(Self.cases.map(\.workout), source: Self.other)
        let over1km = SamplePredicate.workoutValue(.total(.distance, .greaterThan, 1000))
        let longestFirst = [SampleSort(.workout(.distance), ascending: false)]
        for cell in Self.cells {
            let values = WorkoutValueScopes(byType: Dictionary(uniqueKeysWithValues: Self.distanceTypes.filter { $0 != cell.denied }
                                                                   .map { ($0, ReadScope.allSources) }),
                                            others: .ownSamples(appID: Self.reader))
            let visibility = WorkoutValueScopeStoreTests.visibility(values)
            let uuid = uuids[cell.index]
            let visible = !Self.cases[cell.index].derivedFrom.map(\.rawValue).contains { $0 == cell.denied }
            let decoded = try WorkoutValueScopeStoreTests.read(database, visibility)[uuid]
            #expect((decoded?.totalDistance != nil) == visible, "decoded: \(cell.testDescription)")
            let matched = try WorkoutValueScopeStoreTests.read(database, visibility, over1km)[uuid] != nil
            let unmatched = try WorkoutValueScopeStoreTests.read(database, visibility, .not(over1km))[uuid] != nil
            #expect(matched == visible, "over 1 km: \(cell.testDescription)")
            #expect(unmatched == !visible, "not over 1 km: \(cell.testDescription)")
            // Sorted by distance, longest first: a hidden distance sorts as an absent one (last).
            var order: [UUID] = []
            try database.samples.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, sort: longestFirst), scope: visibility) {
                order += $0.map(\.uuid)
            }
            let withDistance = try WorkoutValueScopeStoreTests.read(database, visibility).filter { $0.value.totalDistance != nil }.count
            let position = try #require(order.firstIndex(of: uuid))
            #expect((position < withDistance) == visible, "sorted: \(cell.testDescription)")
        }
    }
}
