import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// The date-range predicate's SQL on a real encrypted store (issue 19: `.strictStartDate` had
/// only an end-to-end test). HealthKit's rules: by default a sample matches when it overlaps
/// the range (ends at or after its start, starts before its end); `.strictStartDate` requires
/// it to *start* at or after the range's start (and before its end), `.strictEndDate` to *end*
/// before the range's end (Apple: `endDate < end ∧ startDate < end`, issue 15 item 1), so a
/// sample ending exactly at the end is not in it.
/// The samples straddle each boundary one way or the other, so each option changes exactly the
/// samples it should.
@Suite(.timeLimit(.minutes(10))) struct StrictDateRangeSQLTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let source = SourceRecord(bundleIdentifier: "org.example.app", name: "App", version: "1")
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    /// (start, end) in minutes after t0; each sample's step count is its index.
    static let spans: [(Double, Double)] = [
        (0, 10),    // 0: ends before the range
        (5, 25),    // 1: straddles the start
        (20, 40),   // 2: inside, starts exactly at the start
        (30, 50),   // 3: inside, ends exactly at the end
        (45, 70),   // 4: straddles the end
        (50, 60),   // 5: starts exactly at the end (not before it)
        (10, 20),   // 6: ends exactly at the start
    ]
    static let range = (start: t0.addingTimeInterval(20 * 60), end: t0.addingTimeInterval(50 * 60))

    static func values(strictStart: Bool, strictEnd: Bool) async throws -> Set<Int> {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let records = spans.enumerated().map { index, span in
            SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: t0.addingTimeInterval(span.0 * 60),
                         endDate: t0.addingTimeInterval(span.1 * 60), value: .quantity(Double(index), unit: "count"))
        }
        _ = try await database.samples.insert(try SampleValidator.canonicalized(batch: records), source: source)
        var found: [SampleRecord] = []
        let predicate = SamplePredicate.dateRange(start: range.start, end: range.end, strictStart: strictStart, strictEnd: strictEnd)
        try database.samples.query(SampleQuerySpec(typeIdentifier: steps, predicate: predicate), scope: .allSources) { found += $0 }
        return Set(found.compactMap { if case let .quantity(value, _) = $0.value { Int(value) } else { nil } })
    }

    @Test func overlappingByDefault() async throws {
        #expect(try await Self.values(strictStart: false, strictEnd: false) == [1, 2, 3, 4, 6])
    }

    @Test func strictStartKeepsSamplesStartingAtOrAfterTheStart() async throws {
        #expect(try await Self.values(strictStart: true, strictEnd: false) == [2, 3, 4])
    }

    @Test func strictEndKeepsSamplesEndingBeforeTheEnd() async throws {
        #expect(try await Self.values(strictStart: false, strictEnd: true) == [1, 2, 6])
    }

    @Test func bothStrict() async throws {
        #expect(try await Self.values(strictStart: true, strictEnd: true) == [2])
    }
}
