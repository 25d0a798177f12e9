import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Issue 11, class 1, at the store: every repository read that takes a predicate evaluates a
/// workout it names within the reader's workout scope (`Visibility.workouts`). The reader may
/// read heart rate and systolic pressure from every source; another app's workout holds one
/// of each. With workouts readable every read finds them; with workouts hidden (own only, or a
/// window that starts after the workout) every read answers as for a workout that does not
/// exist — for each read kind and each way of composing the predicate.
@Suite(.timeLimit(.minutes(10))) struct VisibilityChokePointTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")
    static let reader = "org.example.reader"
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    enum Read: String, CaseIterable, Sendable {
        case samples, sources, statistics, changes, hasChanges, correlationMembers
    }

    static let compositions: [@Sendable (SamplePredicate) -> SamplePredicate] = [
        { $0 }, { .and([$0]) }, { .or([$0, .sources([])]) }, { .not(.not($0)) },
    ]

    @Test(arguments: Read.allCases, 0..<4)
    func aHiddenWorkoutNamesNothing(read: Read, composition: Int) async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let heartRate = SampleRecord(uuid: UUID(), typeIdentifier: Self.heartRate, startDate: Self.start, endDate: Self.start,
                                     value: .quantity(1.2, unit: "count/s"))
        let workout = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: Self.start,
                                   endDate: Self.start.addingTimeInterval(3600),
                                   value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3600)))
        let saved = try await database.samples.insert([heartRate, CorrelationRepositoryTests.reading(130, 85, minute: 0), workout],
                                                       source: Self.other)
        // heart rate, correlation, systolic, diastolic, workout
        try await database.samples.associate([saved[0], saved[2]], with: saved[4], appID: Self.other.bundleIdentifier)
        let predicate = { (uuid: UUID) in Self.compositions[composition](.workout(uuid)) }

        let readable = Visibility.allSources
        #expect(try Self.matches(read, predicate(saved[4]), readable, database) > 0, "\(read): the visible workout must match")
        let nonexistent = try Self.matches(read, predicate(UUID()), readable, database)
        #expect(nonexistent == 0)
        for workouts in [ReadScope.ownSamples(appID: Self.reader),
                         .recentWindow(appID: Self.reader, since: Self.start.addingTimeInterval(60))] {
            let hidden = Visibility(scope: .allSources, workouts: workouts, correlations: .allSources)
            #expect(try Self.matches(read, predicate(saved[4]), hidden, database) == nonexistent, "\(read) under \(workouts)")
        }
    }

    static func matches(_ read: Read, _ predicate: SamplePredicate, _ visibility: Visibility, _ database: HealthDatabase) throws -> Int {
        switch read {
        case .samples:
            var count = 0
            try database.samples.query(SampleQuerySpec(typeIdentifier: heartRate, predicate: predicate), scope: visibility) { count += $0.count }
            return count
        case .sources:
            return try database.samples.sources(of: heartRate, matching: predicate, scope: visibility).count
        case .statistics:
            return try database.statistics.samples(typeIdentifier: heartRate, predicate: predicate, scope: visibility)
                .reduce(0) { $0 + $1.samples.count }
        case .changes:
            return try database.changeFeed.changes(of: heartRate, matching: predicate, scope: visibility, after: .origin, limit: 0).added.count
        case .hasChanges:
            return try database.changeFeed.hasChanges(of: heartRate, matching: predicate, scope: visibility, after: 0).changed ? 1 : 0
        case .correlationMembers:
            var count = 0
            try database.samples.queryCorrelations(
                CorrelationQuerySpec(typeIdentifier: CorrelationRepositoryTests.bloodPressure,
                                     objectPredicates: [CorrelationRepositoryTests.systolic: predicate]),
                objectScopes: [CorrelationRepositoryTests.systolic: visibility, CorrelationRepositoryTests.diastolic: visibility]) { count += $0.count }
            return count
        }
    }
}
