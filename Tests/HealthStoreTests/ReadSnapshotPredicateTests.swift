import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `ReadSnapshot` for predicates that consult rows other than the matched one (SECURITY.md, "A
/// second reading is bounded by the first"; privacy review, session 18, finding 2): a reading after
/// the answer's first matches `.workout(uuid)` and `.workoutEffort` against the associations and
/// effort relations the first reading saw (`Visibility.through`, applied by `SampleSQL.compile`).
/// The reader associates or relates one more of its own samples between two readings of one
/// snapshot: absent from the second (as from the first), present for a new snapshot (the control).
/// Both readings a stream resumes with are varied: the sample query's and the statistics samples'.
@Suite(.timeLimit(.minutes(10))) struct ReadSnapshotPredicateTests {
    enum Named: String, CaseIterable, CustomTestStringConvertible {
        case workout
        case workoutEffort
        var testDescription: String { rawValue }
        var type: String {
            self == .workout ? HKQuantityTypeIdentifier.stepCount.rawValue : HKQuantityTypeIdentifier.workoutEffortScore.rawValue
        }
        var unit: String { self == .workout ? "count" : "appleEffortScore" }
        func predicate(_ workout: UUID) -> SamplePredicate {
            self == .workout ? .workout(workout) : .workoutEffort(workout: workout, activity: nil)
        }
    }

    enum Reading: String, CaseIterable, CustomTestStringConvertible {
        case sampleQuery = "sample query"
        case statistics
        var testDescription: String { rawValue }
    }

    static let appID = "org.example.reader"
    static let source = SourceRecord(bundleIdentifier: appID, name: "Reader", version: "1")
    static let own = Visibility.ownSamples(appID: appID)

    static func sample(_ named: Named, minute: Double) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_698_796_800 + minute * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: named.type, startDate: start, endDate: start.addingTimeInterval(30),
                            value: .quantity(5, unit: named.unit))
    }

    static func read(_ reading: Reading, _ named: Named, workout: UUID, _ database: HealthDatabase, within snapshot: ReadSnapshot) throws -> [String] {
        switch reading {
        case .sampleQuery:
            var uuids: [String] = []
            _ = try database.samples.queryFetched(SampleQuerySpec(typeIdentifier: named.type, predicate: named.predicate(workout)), scope: own,
                                                  batching: .rows(500), resuming: nil, within: snapshot) { batch in
                uuids += batch.rows.map(\.uuid.uuidString) + batch.records.map(\.uuid.uuidString)
                return true
            }
            return uuids.sorted()
        case .statistics:
            return try database.statistics.samples(typeIdentifier: named.type, predicate: named.predicate(workout), scope: own, within: snapshot)
                .flatMap(\.samples).map { "\($0.span.start)=\($0.value)" }.sorted()
        }
    }

    static func name(_ sample: UUID, _ named: Named, workout: UUID, _ database: HealthDatabase) async throws {
        switch named {
        case .workout: try await database.samples.associate([sample], with: workout, appID: appID)
        case .workoutEffort:
            try await database.samples.changeWorkoutEffortRelation(sample: sample, workout: workout, activity: nil, appID: appID,
                                                                   workouts: .ownSamples(appID: appID), relate: true)
        }
    }

    @Test(arguments: Reading.allCases, Named.allCases)
    func aLaterReadingMatchesNothingNamedAfterTheFirst(_ reading: Reading, _ named: Named) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let workout = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: Date(timeIntervalSince1970: 1_698_796_800),
                                   endDate: Date(timeIntervalSince1970: 1_698_800_400),
                                   value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3_600)))
        let workoutUUID = try #require(try await database.samples.insert([workout], source: Self.source).first)
        let named1 = try #require(try await database.samples.insert([Self.sample(named, minute: 1)], source: Self.source).first)
        // Older than the snapshot, named only after its first reading.
        let later = try #require(try await database.samples.insert([Self.sample(named, minute: 2)], source: Self.source).first)
        try await Self.name(named1, named, workout: workoutUUID, database)

        let snapshot = ReadSnapshot()
        let first = try Self.read(reading, named, workout: workoutUUID, database, within: snapshot)
        try #require(!first.isEmpty, "\(reading), \(named): the first reading matches the sample named before it")
        try await Self.name(later, named, workout: workoutUUID, database)
        let again = try Self.read(reading, named, workout: workoutUUID, database, within: snapshot)
        #expect(again == first, "\(reading), \(named): a second reading of one snapshot matches a sample named after the first: \(again) vs \(first)")
        let fresh = try Self.read(reading, named, workout: workoutUUID, database, within: ReadSnapshot())
        #expect(fresh != first, "\(reading), \(named): control — a new answer must match the sample named since: \(fresh)")
    }
}
