import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Answers are cut by bytes beside their count (`ResultBatching`, `ChangeFeedBatching`): a batch
/// ends before the row that would take it past its bytes, holds at least one row, and every row
/// arrives once, in order — also when a stale batch is refused and the query resumes, and across
/// the change feed's steps over several types. Every budget from below the smallest row to above
/// the whole answer is tried, so each cut position is met. Sizes here are synthetic (the store
/// does not know the wire; the broker measures real encodings, `HeavyRowsEndToEndTests`).
@Suite(.timeLimit(.minutes(10))) struct ResultBatchingTests {
    static let heartRate = FetchedSampleQueryTests.heartRate
    static let spec = SampleQuerySpec(typeIdentifier: heartRate, sort: FetchedSampleQueryTests.byStart)

    /// A row with metadata (a whole record) weighs 50, a plain one 10.
    static func size(ofLastRowOf batch: FetchedSampleBatch) -> Int {
        guard let row = batch.rows.last else { return 0 }
        if case .record = row.value { return 50 }
        return 10
    }

    static func sizes(_ batch: FetchedSampleBatch) -> [Int] {
        batch.rows.map { if case .record = $0.value { 50 } else { 10 } }
    }

    /// Each batch within its bytes (or alone), and no batch could have taken the next one's first row.
    static func expectCut(_ batches: [[Int]], bytes: Int, rows: Int, _ context: String) {
        for (index, batch) in batches.enumerated() {
            #expect(!batch.isEmpty, "\(context): an empty batch")
            #expect(batch.count <= rows, "\(context): batch \(index) holds \(batch.count) rows")
            #expect(batch.count == 1 || batch.reduce(0, +) <= bytes, "\(context): batch \(index) \(batch) passes \(bytes)")
            if index + 1 < batches.count, batch.count < rows, let next = batches[index + 1].first {
                #expect(batch.reduce(0, +) + next > bytes, "\(context): batch \(index) \(batch) ended before \(next) fitted")
            }
        }
    }

    @Test func sampleBatchesAreCutByBytesAndCount() async throws {
        let (database, expected) = try await FetchedSampleQueryTests.filledStore()
        for rows in [3, 500] {
            for bytes in stride(from: 5, through: 1_300, by: 15) {
                var batches: [FetchedSampleBatch] = []
                try database.samples.queryFetched(Self.spec, scope: .allSources,
                                                  batching: ResultBatching(rows: rows, bytes: bytes, measure: Self.size(ofLastRowOf:))) {
                    batches.append($0)
                }
                let context = "rows \(rows), bytes \(bytes)"
                #expect(batches.flatMap { $0.sampleRecords() } == expected, "\(context)")
                Self.expectCut(batches.map(Self.sizes), bytes: bytes, rows: rows, context)
            }
        }
    }

    /// A batch refused (the reader's view went stale) ends the reading; resumed, the query goes
    /// on from the last row of the last batch sent — never from a row held back for the next batch.
    @Test func aRefusedByteCutBatchResumesAfterTheLastRowSent() async throws {
        let (database, expected) = try await FetchedSampleQueryTests.filledStore()
        let batching = ResultBatching(rows: 500, bytes: 75, measure: Self.size(ofLastRowOf:))
        var all: [FetchedSampleBatch] = []
        try database.samples.queryFetched(Self.spec, scope: .allSources, batching: batching) { all.append($0) }
        for refused in 0..<all.count {
            var sent: [SampleRecord] = []
            var offered = 0
            var resume: SampleQueryResume?
            var readings = 0
            let snapshot = ReadSnapshot()
            repeat {
                readings += 1
                resume = try database.samples.queryFetched(Self.spec, scope: .allSources, batching: batching, resuming: resume,
                                                           within: snapshot) { batch in
                    defer { offered += 1 }
                    guard offered != refused else { return false }
                    sent += batch.sampleRecords()
                    return true
                }
            } while resume != nil && readings < 10
            #expect(sent == expected, "refusing batch \(refused)")
            #expect(readings == 2, "refusing batch \(refused)")
        }
    }

    @Test func changeFeedStepsAreCutByBytesAcrossTypes() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let sleep = ChangeFeedPartsTests.sleep, mindful = ChangeFeedPartsTests.mindful
        let a = ChangeFeedPartsTests.source("a")
        // Interleaved types; every third sample replaced by a newer sync version (a deletion).
        for minute in 0..<30 {
            let type = minute % 2 == 0 ? sleep : mindful
            let sync: (String, Double)? = minute % 3 == 0 ? ("s\(minute)", 1) : nil
            _ = try await database.samples.insert([ChangeFeedPartsTests.sample(type, minute: minute, sync: sync)], source: a)
            if minute % 3 == 0 {
                _ = try await database.samples.insert([ChangeFeedPartsTests.sample(type, minute: minute, sync: ("s\(minute)", 2))], source: a)
            }
        }
        let parts = ChangeFeedPartsTests.parts()
        let whole = try ChangeFeedPartsTests.walk(database, parts, limit: 0)
        #expect(whole.deleted.count == 10)
        // A sample with metadata (its sync identity) weighs 50, one without 10, a deletion 5.
        let batching = { (bytes: Int) in
            ChangeFeedBatching(bytes: bytes, measureAdded: { $0.metadata.isEmpty ? 10 : 50 }, measureDeleted: { _ in 5 })
        }
        for limit in [0, 4] {
            for bytes in stride(from: 3, through: 700, by: 11) {
                var cursor = ChangeCursor.origin
                var added: [UUID] = [], deleted: [UUID] = []
                var steps: [[Int]] = []
                var reachedEnd = false
                while !reachedEnd, steps.count < 500 {
                    let step = try database.changeFeed.changes(of: parts, after: cursor, limit: limit, batching: batching(bytes))
                    added += step.added.map(\.uuid)
                    deleted += step.deleted.map(\.uuid)
                    steps.append(step.added.map { $0.metadata.isEmpty ? 10 : 50 } + step.deleted.map { _ in 5 })
                    cursor = step.cursor
                    reachedEnd = step.reachedEnd
                }
                let context = "limit \(limit), bytes \(bytes)"
                #expect(added == whole.added, "\(context)")
                #expect(deleted == whole.deleted, "\(context)")
                #expect(cursor == whole.end, "\(context)")
                for (index, step) in steps.enumerated() where !(index == steps.count - 1 && step.isEmpty) {
                    #expect(!step.isEmpty, "\(context): step \(index) is empty")
                    #expect(step.count == 1 || step.reduce(0, +) <= bytes, "\(context): step \(index) \(step)")
                    if limit > 0 { #expect(step.count <= limit, "\(context): step \(index) \(step)") }
                }
            }
        }
    }

    @Test func correlationBatchesAreCutByBytesWithTheirSamples() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        var saved: [UUID] = []
        for minute in 0..<7 {
            let uuids = try await database.samples.insert([CorrelationRepositoryTests.reading(Double(110 + minute), 70, minute: minute)],
                                                          source: CorrelationRepositoryTests.writer)
            saved.append(uuids[0])  // the correlation's, then its samples'
        }
        let scopes = [CorrelationRepositoryTests.systolic: Visibility.allSources, CorrelationRepositoryTests.diastolic: .allSources]
        // Weighed by its samples (so they must be attached when it is measured), unevenly.
        let measure = { (record: SampleRecord) -> Int in
            guard case let .correlation(objects) = record.value else { return 0 }
            return objects.reduce(0) { total, object in
                guard case let .quantity(value, _) = object.value else { return total }
                return total + 10 + Int(value) % 3 * 15
            }
        }
        for bytes in stride(from: 1, through: 400, by: 7) {
            var batches: [[SampleRecord]] = []
            try database.samples.queryCorrelations(CorrelationQuerySpec(typeIdentifier: CorrelationRepositoryTests.bloodPressure),
                                                   objectScopes: scopes, batching: ResultBatching(rows: 500, bytes: bytes, measure: measure)) {
                batches.append($0)
            }
            #expect(batches.flatMap { $0.map(\.uuid) } == saved, "bytes \(bytes)")
            Self.expectCut(batches.map { $0.map(measure) }, bytes: bytes, rows: 500, "bytes \(bytes)")
        }
    }
}
