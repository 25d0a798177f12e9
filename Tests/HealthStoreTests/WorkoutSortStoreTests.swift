import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Issue 15's workout sort keys in the store (`SampleSQL.orderBy`): HKWorkout.h declares
/// `HKWorkoutSortIdentifierDuration`, `…TotalDistance`, `…TotalEnergyBurned`,
/// `…TotalSwimmingStrokeCount` and `…TotalFlightsClimbed` as the keys an HKSampleQuery of
/// workouts sorts by (developer.apple.com/documentation/healthkit/hkworkoutsortidentifierduration
/// and its siblings). Four workouts whose totals are in a different order for every key, one
/// without any total; a missing total sorts first ascending and last descending (NULL in SQLite),
/// ties keep the store order (`o.id`).
@Suite(.timeLimit(.minutes(10))) struct WorkoutSortStoreTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")

    /// Workout `day` (1…4, the store order) with the given totals in the stored units.
    static func workout(day: Int, minutes: Double, kcal: Double?, meters: Double?, strokes: Double?, flights: Double?) -> SampleRecord {
        let begin = start.addingTimeInterval(Double(day) * 86_400)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: begin,
                            endDate: begin.addingTimeInterval(minutes * 60),
                            value: .workout(WorkoutValue(
                                activityType: HKWorkoutActivityType.running.rawValue, duration: minutes * 60,
                                totalEnergyBurned: kcal.map { RecordedQuantity($0, unit: "kcal") },
                                totalDistance: meters.map { RecordedQuantity($0, unit: "m") },
                                totalSwimmingStrokeCount: strokes.map { RecordedQuantity($0, unit: "count") },
                                totalFlightsClimbed: flights.map { RecordedQuantity($0, unit: "count") })))
    }

    static let workouts = [
        workout(day: 1, minutes: 40, kcal: 191, meters: 2000, strokes: 300, flights: nil),
        workout(day: 2, minutes: 20, kcal: 250, meters: 9656, strokes: nil, flights: 7),
        workout(day: 3, minutes: 30, kcal: 100, meters: 7000, strokes: 100, flights: nil),
        workout(day: 4, minutes: 10, kcal: nil, meters: nil, strokes: nil, flights: nil),
    ]

    /// The days in the order each key sorts them, ascending and descending.
    static let expected: [(WorkoutTotal, ascending: [Int], descending: [Int])] = [
        (.duration, [4, 2, 3, 1], [1, 3, 2, 4]),
        (.energyBurned, [4, 3, 1, 2], [2, 1, 3, 4]),
        (.distance, [4, 1, 3, 2], [2, 3, 1, 4]),
        (.swimmingStrokeCount, [2, 4, 3, 1], [1, 3, 2, 4]),
        (.flightsClimbed, [1, 3, 4, 2], [2, 1, 3, 4]),
    ]

    static func days(_ database: HealthDatabase, _ sort: [SampleSort], limit: Int = 0, scope: Visibility = .allSources) throws -> [Int] {
        var found: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, sort: sort, limit: limit), scope: scope) {
            found += $0
        }
        return found.map { Int(($0.startDate.timeIntervalSince(start) / 86_400).rounded()) }
    }

    @Test func eachWorkoutKeySortsByItsTotalWithMissingTotalsFirstAscending() async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        _ = try await database.samples.insert(Self.workouts, source: Self.owner)
        for (total, ascending, descending) in Self.expected {
            #expect(try Self.days(database, [SampleSort(.workout(total), ascending: true)]) == ascending, "\(total) ascending")
            #expect(try Self.days(database, [SampleSort(.workout(total), ascending: false)]) == descending, "\(total) descending")
            #expect(try Self.days(database, [SampleSort(.workout(total), ascending: true)], limit: 2) == Array(ascending.prefix(2)))
        }
        // A second key breaks the first one's ties: the two workouts without strokes by end date, latest first.
        #expect(try Self.days(database, [SampleSort(.workout(.swimmingStrokeCount), ascending: true),
                                         SampleSort(.endDate, ascending: false)]) == [4, 2, 3, 1])
    }

    /// A reader that sees only its own workouts gets the order and the cut a store holding only
    /// those would give, however the hidden workouts' totals interleave with them.
    @Test func hiddenWorkoutsNeitherMoveNorDisplaceVisibleOnes() async throws {
        let twin = TemporaryDirectory(), full = TemporaryDirectory()
        let twinStore = try EncryptedDatabase.open(directory: twin.path)
        let fullStore = try EncryptedDatabase.open(directory: full.path)
        defer { try? twinStore.close(); try? fullStore.close() }
        let alone = try HealthDatabase(writer: twinStore.writer)
        let shared = try HealthDatabase(writer: fullStore.writer)
        _ = try await alone.samples.insert(Self.workouts, source: Self.owner)
        // The other app's workouts first (lower row ids) and with totals between and beyond the reader's.
        _ = try await shared.samples.insert([
            Self.workout(day: 5, minutes: 35, kcal: 150, meters: 8000, strokes: 200, flights: 3),
            Self.workout(day: 6, minutes: 5, kcal: 10, meters: 100, strokes: 1, flights: 1),
            Self.workout(day: 7, minutes: 90, kcal: 900, meters: 42_000, strokes: 900, flights: 90),
        ], source: Self.other)
        _ = try await shared.samples.insert(Self.workouts, source: Self.owner)
        let own = Visibility.ownSamples(appID: Self.owner.bundleIdentifier)
        for (total, _, _) in Self.expected {
            for ascending in [true, false] {
                for limit in [0, 1, 2] {
                    let sort = [SampleSort(.workout(total), ascending: ascending)]
                    #expect(try Self.days(shared, sort, limit: limit, scope: own) == Self.days(alone, sort, limit: limit, scope: own),
                            "\(total) ascending \(ascending) limit \(limit)")
                }
            }
        }
    }

    /// A reader that sees the workouts but may not read active energy gets, sorting by
    /// `HKWorkoutSortIdentifierTotalEnergyBurned`, the order of a twin store whose workouts carry
    /// no energy total (DESIGN §7.3: the order is a response byte, so it may not depend on the
    /// hidden energy); a reader of energy gets the energy order, which differs (the control).
    @Test func aTotalTheReaderMayNotReadSortsAsAnAbsentOne() async throws {
        let twin = try HealthDatabase(writer: DatabaseQueue())
        let full = try HealthDatabase(writer: DatabaseQueue())
        let withoutEnergy = Self.workouts.map { record -> SampleRecord in
            guard case var .workout(value) = record.value else { return record }
            value.totalEnergyBurned = nil
            return SampleRecord(uuid: record.uuid, typeIdentifier: record.typeIdentifier, startDate: record.startDate,
                                endDate: record.endDate, value: .workout(value))
        }
        _ = try await twin.samples.insert(withoutEnergy, source: Self.other)
        _ = try await full.samples.insert(Self.workouts, source: Self.other)
        let energy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
        let denied = Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources,
                                workoutValues: WorkoutValueScopes(byType: [energy: .ownSamples(appID: "org.example.reader")], others: .allSources))
        let readsEnergy = Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources,
                                     workoutValues: WorkoutValueScopes(others: .allSources))
        var differs = false
        for ascending in [true, false] {
            for limit in [0, 1, 2] {
                let sort = [SampleSort(.workout(.energyBurned), ascending: ascending)]
                #expect(try Self.days(full, sort, limit: limit, scope: denied) == Self.days(twin, sort, limit: limit, scope: denied),
                        "ascending \(ascending) limit \(limit)")
                differs = try differs || Self.days(full, sort, limit: limit, scope: readsEnergy) != Self.days(twin, sort, limit: limit, scope: readsEnergy)
            }
        }
        #expect(differs, "a reader of energy must see the energy order")
    }

    /// The sort's lookups are by the visible row's key (VisibleRowsPlanTests' rule): no plan
    /// step scans `workouts` or searches it by anything but its primary key.
    @Test func workoutSortPlansAreBoundedByVisibleRows() async throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SampleSQL.uuidBlob) }
        let writer = try DatabaseQueue(configuration: configuration)
        let database = try HealthDatabase(writer: writer)
        _ = try await database.samples.insert(Self.workouts, source: Self.other)
        _ = try await database.samples.insert(Self.workouts, source: SourceRecord(bundleIdentifier: VisibleRowsPlanTests.reader,
                                                                                  name: "Reader", version: "1"))
        for (scopeName, visibility) in VisibleRowsPlanTests.scopes {
            for (total, _, _) in Self.expected {
                let plans = try ChangeFeedQueryPlanTests.explained(writer) {
                    _ = try Self.days(database, [SampleSort(.workout(total), ascending: false)], limit: 2, scope: visibility)
                }
                #expect(!plans.isEmpty)
                for (sql, steps) in plans {
                    for violation in VisibleRowsPlanTests.violations(steps) {
                        Issue.record("\(total), \(scopeName): \(violation)\n\(sql)\n\(steps.map(\.detail))")
                    }
                }
            }
        }
    }
}
