import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `ReadSnapshot`: every reading of an answer after its first reads only what was committed by the
/// first (SECURITY.md, "A second reading is bounded by the first"). For each store read a stream
/// reads again — the change feed (anchored deliveries), statistics samples (collections), activity
/// summaries, sample queries (a stale HKSampleQuery or correlation query resumes) — a sample committed between two readings of one snapshot is absent from the second,
/// and present for a new snapshot (the control: the reading would have shown it).
@Suite(.timeLimit(.minutes(10))) struct ReadSnapshotTests {
    enum Reading: String, CaseIterable, CustomTestStringConvertible {
        case changeFeed = "change feed"
        case statistics
        case activitySummaries = "activity summaries"
        /// HKSampleQuery's reading (`queryFetched`), the one a stale sample query resumes with.
        case sampleQuery = "sample query"

        var testDescription: String { rawValue }

        var type: String {
            self == .activitySummaries ? HKQuantityTypeIdentifier.activeEnergyBurned.rawValue : HKQuantityTypeIdentifier.stepCount.rawValue
        }

        /// What the reading sees, as text: the UUIDs or days it holds (and the feed's end).
        func read(_ database: HealthDatabase, within snapshot: ReadSnapshot) throws -> [String] {
            let everything = Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources)
            switch self {
            case .changeFeed:
                let batch = try database.changeFeed.changes(of: [FeedPart(typeIdentifier: type, predicate: nil, visibility: everything)],
                                                            after: .origin, limit: 0, within: snapshot)
                return batch.added.map(\.uuid.uuidString) + ["complete through \(batch.cursor.change)"]
            case .statistics:
                return try database.statistics.samples(typeIdentifier: type, predicate: nil, scope: everything, within: snapshot)
                    .flatMap(\.samples).map { "\($0.span.start)=\($0.value)" }
            case .activitySummaries:
                let days = ActivitySummaryQuerySpec(firstDay: CalendarDay(year: 2023, month: 11, day: 1),
                                                    lastDay: CalendarDay(year: 2023, month: 11, day: 30), timeZoneIdentifier: "UTC")
                return try database.activitySummaries.summaries(days, scope: everything, within: snapshot).summaries.map(\.day.description)
            case .sampleQuery:
                var uuids: [String] = []
                _ = try database.samples.queryFetched(SampleQuerySpec(typeIdentifier: type), scope: everything, batching: .rows(500),
                                                      resuming: nil, within: snapshot) { batch in
                    uuids += batch.rows.map(\.uuid.uuidString)
                    return true
                }
                return uuids
            }
        }

        /// A sample of the reading's type on November `day`, 2023.
        func sample(day: Int) -> SampleRecord {
            let start = Date(timeIntervalSince1970: 1_698_796_800 + Double(day - 1) * 86_400 + 36_000)
            let value: SampleRecord.Value = self == .activitySummaries ? .quantity(100, unit: "kcal") : .quantity(Double(day), unit: "count")
            return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(600), value: value)
        }
    }

    static let source = SourceRecord(bundleIdentifier: "org.example.reader", name: "Reader", version: "1")

    @Test(arguments: Reading.allCases)
    func aLaterReadingHoldsNothingCommittedAfterTheFirst(_ reading: Reading) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([reading.sample(day: 14)], source: Self.source)
        let snapshot = ReadSnapshot()
        let first = try reading.read(database, within: snapshot)
        #expect(snapshot.change != nil, "the first reading records its change number")
        _ = try await database.samples.insert([reading.sample(day: 17)], source: Self.source)
        let again = try reading.read(database, within: snapshot)
        #expect(again == first, "\(reading): a second reading of one snapshot holds the late sample: \(again) vs \(first)")
        let fresh = try reading.read(database, within: ReadSnapshot())
        #expect(fresh != first, "\(reading): control — a new answer must see the late sample: \(fresh)")
    }
}
