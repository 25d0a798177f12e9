import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// redteam23, F2 (session 23): `predicateForObjects(from: workout)` compiled to `o.id IN (SELECT
/// a.sample_id FROM workout_associations …)`, so SQLite read every association of the workout and
/// looked each sample up before its type and scope were tested. A reader that may see another
/// app's workout but not its heart rate timed one query of heart rate with that predicate and
/// learned how many heart rates the other app had associated (44 ms against 1 ms for 100,000; the
/// answers were the same bytes). DESIGN.md §7.3: what a read costs follows only what its reader
/// may see. Now the predicate is correlated to each visible row (`SampleSQL.compile`, `.workout`).
///
/// Counted, not timed: the SQLite VM steps of every statement each read kind runs, with 0, 1,000
/// and 10,000 hidden samples associated with the workout, against a twin store in which they
/// never existed — equal, and the same answers. The reader sees the workout and asks for the
/// workout's heart rates; the hidden samples are, by the reader's scope for heart rate:
/// - its own rows only: the other app's heart rates;
/// - a window: the other app's heart rates from before it;
/// - every source's rows: the other app's step counts, a type it may not read (the predicate
///   then reads only the heart rates' associations, by the (workout, type) index of v72).
@Suite(.timeLimit(.minutes(10))) struct WorkoutPredicateHiddenSamplesTests {
    typealias Read = VisibilityChokePointTests.Read
    static let heartRate = VisibilityChokePointTests.heartRate
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = VisibilityChokePointTests.start
    static let reader = SourceRecord(bundleIdentifier: VisibilityChokePointTests.reader, name: "Reader", version: "1")
    static let other = VisibilityChokePointTests.other

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case own = "reads its own heart rates"
        case window = "reads heart rates in a window"
        case all = "reads every heart rate, no steps"

        var testDescription: String { rawValue }

        var visibility: Visibility {
            let id = WorkoutPredicateHiddenSamplesTests.reader.bundleIdentifier
            let scope: ReadScope = switch self {
            case .own: .ownSamples(appID: id)
            case .window: .recentWindow(appID: id, since: WorkoutPredicateHiddenSamplesTests.start.addingTimeInterval(86_400))
            case .all: .allSources
            }
            return Visibility(scope: scope, workouts: .allSources, correlations: scope)
        }

        /// The hidden samples' type; for the window they start before it (as every sample here does).
        var hiddenType: String { self == .all ? WorkoutPredicateHiddenSamplesTests.steps : WorkoutPredicateHiddenSamplesTests.heartRate }
    }

    /// The reads a predicate reaches with the reader's heart-rate scope (correlation members are
    /// blood pressure, a type this test does not fill).
    static let reads: [Read] = [.samples, .sources, .statistics, .changes, .hasChanges]

    @Test(arguments: Kind.allCases, reads)
    func aWorkoutsHiddenSamplesCostTheReaderNothing(kind: Kind, read: Read) async throws {
        let twin = try await Self.outcome(kind, read, hiddenSamples: nil)
        #expect(twin.matched > 0, "\(kind), \(read): the reader's visible associated heart rates must match")
        for count in [0, 1_000, 10_000] {
            let world = try await Self.outcome(kind, read, hiddenSamples: count)
            #expect(world.matched == twin.matched, "\(kind), \(read), \(count) hidden: \(world.matched) matched, the twin \(twin.matched)")
            #expect(world.steps == twin.steps,
                    "\(kind), \(read): \(twin.steps) VM steps in the twin, \(world.steps) with \(count) hidden samples")
        }
    }

    /// A store with the other app's workout and the reader's own; the reader's three heart rates,
    /// two of them associated with its workout; one hidden sample associated with the other's
    /// workout in both worlds (so a seek lands on a hidden entry alike), and `hiddenSamples`
    /// more (nil: the twin, where they never existed). The reader asks for the heart rates of
    /// each workout.
    static func outcome(_ kind: Kind, _ read: Read, hiddenSamples: Int?) async throws -> (matched: Int, steps: Int64) {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        func samples(_ count: Int, of type: String) -> [SampleRecord] {
            (0..<count).map { index in
                let at = start.addingTimeInterval(Double(index % 3_000))
                let value: SampleRecord.Value = type == steps ? .quantity(Double(index % 7 + 1), unit: "count")
                    : .quantity(1 + Double(index % 7) / 10, unit: "count/s")
                return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: at, endDate: at, value: value)
            }
        }
        func workout() -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(3600),
                         value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3600)))
        }
        let theirs = try await database.samples.insert([workout()] + samples(1 + (hiddenSamples ?? 0), of: kind.hiddenType), source: other)
        try await database.samples.associate(Array(theirs.dropFirst()), with: theirs[0], appID: other.bundleIdentifier)
        let ours = try await database.samples.insert([workout()] + samples(3, of: heartRate), source: reader)
        try await database.samples.associate(Array(ours[1...2]), with: ours[0], appID: reader.bundleIdentifier)
        var matched = 0
        let vmSteps = try WorkoutEffortChangeWalkTests.steps(writer) {
            matched = try VisibilityChokePointTests.matches(read, .workout(theirs[0]), kind.visibility, database)
                + VisibilityChokePointTests.matches(read, .workout(ours[0]), kind.visibility, database)
        }
        return (matched, vmSteps)
    }

    /// v72 fills the sample's type into associations made before it, so a reader of every
    /// source's heart rates still finds the workout's heart rates (a row left at type 0 would
    /// match no type) and not its steps.
    @Test func associationsMadeBeforeV72TakeTheirSamplesType() throws {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: "v69: effort relation changes walked by the scope's ranges")
        let workout = UUID()
        let heartRateSample = UUID()
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO sample_types (id, identifier) VALUES (1, ?), (2, ?), (3, ?);
                INSERT INTO sources (id, bundle_identifier, name) VALUES (1, 'org.example.other', 'Other');
                INSERT INTO objects (id, uuid, type_id, source_id, start_us, end_us, quantity, change_seq)
                    VALUES (1, ?, 1, 1, 1700000000000000, 1700003600000000, NULL, 1),
                           (2, ?, 2, 1, 1700000600000000, 1700000600000000, 1.5, 1),
                           (3, ?, 3, 1, 1700000600000000, 1700000600000000, 10, 1);
                INSERT INTO workout_associations (workout_id, sample_id, change_seq) VALUES (1, 2, 2), (1, 3, 2);
                UPDATE counters SET value = 2 WHERE name = 'change';
                """, arguments: [HKWorkoutTypeIdentifier, Self.heartRate, Self.steps, workout, heartRateSample, UUID()])
        }
        let database = try HealthDatabase(writer: writer)
        var found: [UUID] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: .workout(workout)), scope: .allSources) {
            found += $0.map(\.uuid)
        }
        #expect(found == [heartRateSample])
        let types = try writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT sample_type_id FROM workout_associations ORDER BY sample_id")
        }
        #expect(types == [2, 3])
    }
}
