import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `queryFetched` (what the broker streams to apps) returns exactly the rows `query` does, as
/// scalars where a row is plain, and its shared source and device tables hold only what the
/// visible rows name.
@Suite(.timeLimit(.minutes(10))) struct FetchedSampleQueryTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let watch1 = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1")
    static let watch2 = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "2")
    static let phone = SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone", version: nil)
    static let band = SourceRecord(bundleIdentifier: "org.example.band", name: "Band", version: "7.1")
    static let byStart = [SampleSort(.startDate, ascending: true)]

    /// Four sources (one under two versions) saving 25 samples each, in turn: what a reader of
    /// every source must get back, in start order.
    static func filledStore() async throws -> (HealthDatabase, [SampleRecord]) {
        let database = try HealthDatabase(writer: DatabaseQueue())
        var expected: [SampleRecord] = []
        for (index, source) in [watch1, phone, watch2, band].enumerated() {
            let saved = SampleRowDecoderTests.samples(25, offset: index * 25)
            expected += SampleRowDecoderTests.stored(saved, uuids: try await database.samples.insert(saved, source: source), source: source)
        }
        return (database, expected)
    }

    static func fetched(_ database: HealthDatabase, _ spec: SampleQuerySpec, scope: Visibility,
                        batchSize: Int = 7) throws -> (records: [SampleRecord], batches: [FetchedSampleBatch]) {
        var batches: [FetchedSampleBatch] = []
        try database.samples.queryFetched(spec, scope: scope, batchSize: batchSize) { batches.append($0) }
        return (batches.flatMap { $0.sampleRecords() }, batches)
    }

    /// Batches of 7 over 100 rows: later batches' rows point into tables the first batches grew.
    @Test func fetchedRowsAreTheQueriedRecords() async throws {
        let (database, expected) = try await Self.filledStore()
        let spec = SampleQuerySpec(typeIdentifier: Self.heartRate, sort: Self.byStart)
        let (records, batches) = try Self.fetched(database, spec, scope: .allSources)
        #expect(records == expected)
        #expect(batches.map(\.count) == Array(repeating: 7, count: 14) + [2])
        // Only rows with metadata are whole records; every other row is plain.
        let whole = batches.flatMap(\.rows).filter { if case .record = $0.value { true } else { false } }
        #expect(whole.count == expected.filter { !$0.metadata.isEmpty }.count)
        #expect(batches.last?.sources == [Self.watch1, Self.phone, Self.watch2, Self.band])
        #expect(batches.last?.devices.count == 2)
    }

    /// Adjacent rows of one source under different versions (an app updated between saves):
    /// each row keeps its own version, also where only the version changes from one row to
    /// the next, to none, and back (the decoder compares the last row's version in place).
    @Test func adjacentRowsOfOneSourceKeepTheirOwnVersions() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let unversioned = SourceRecord(bundleIdentifier: Self.watch1.bundleIdentifier, name: Self.watch1.name, version: nil)
        let longer = SourceRecord(bundleIdentifier: Self.watch1.bundleIdentifier, name: Self.watch1.name, version: "12")
        var expected: [SampleRecord] = []
        for (index, source) in [Self.watch1, Self.watch2, unversioned, Self.watch1, longer, Self.watch2].enumerated() {
            let saved = SampleRowDecoderTests.samples(3, offset: index * 3)
            expected += SampleRowDecoderTests.stored(saved, uuids: try await database.samples.insert(saved, source: source), source: source)
        }
        let spec = SampleQuerySpec(typeIdentifier: Self.heartRate, sort: Self.byStart)
        let (records, _) = try Self.fetched(database, spec, scope: .allSources, batchSize: 4)
        #expect(records.map(\.source?.version) == expected.map(\.source?.version))
        #expect(records == expected)
    }

    /// The predicate and the limit apply as in `query`: the same rows either way.
    @Test func aPredicateAndALimitSelectTheSameRowsAsQuery() async throws {
        let (database, expected) = try await Self.filledStore()
        let from = SampleRowDecoderTests.start.addingTimeInterval(30 * 60)
        let spec = SampleQuerySpec(typeIdentifier: Self.heartRate, predicate: .dateRange(start: from, end: nil, strictStart: true, strictEnd: false),
                                   sort: Self.byStart, limit: 40)
        var queried: [SampleRecord] = []
        try database.samples.query(spec, scope: .allSources) { queried += $0 }
        #expect(queried == Array(expected.filter { $0.startDate >= from }.prefix(40)))
        #expect(try Self.fetched(database, spec, scope: .allSources).records == queried)
    }

    /// A reader confined to its own samples gets only them, and the batch's source table — sent
    /// to it as shared parts — names no other source.
    @Test func aReaderOfItsOwnSamplesSeesNoOtherSourceInTheTables() async throws {
        let (database, expected) = try await Self.filledStore()
        let spec = SampleQuerySpec(typeIdentifier: Self.heartRate, sort: Self.byStart)
        let (records, batches) = try Self.fetched(database, spec, scope: .ownSamples(appID: Self.phone.bundleIdentifier))
        #expect(records == expected.filter { $0.source == Self.phone })
        #expect(batches.allSatisfy { $0.sources == [Self.phone] })
        let (none, noBatches) = try Self.fetched(database, spec, scope: .ownSamples(appID: "org.example.none"))
        #expect(none.isEmpty && noBatches.isEmpty)
    }

    /// A category type: values as integers, no unit.
    @Test func aCategoryTypeFetchesItsValueAndNoUnit() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
        let start = SampleRowDecoderTests.start
        let saved = (0..<3).map { night in
            SampleRecord(uuid: UUID(), typeIdentifier: sleep, startDate: start.addingTimeInterval(Double(night) * 86_400),
                         endDate: start.addingTimeInterval(Double(night) * 86_400 + 28_800), value: .category(night))
        }
        let expected = SampleRowDecoderTests.stored(saved, uuids: try await database.samples.insert(saved, source: Self.band), source: Self.band)
        let (records, batches) = try Self.fetched(database, SampleQuerySpec(typeIdentifier: sleep), scope: .allSources)
        #expect(records == expected)
        #expect(batches.first?.unit == "")
        #expect(batches.first?.rows.map(\.value) == [.category(0), .category(1), .category(2)])
    }
}

extension FetchedSampleQueryTests {
    /// A user's entry (metadata of two kinds, a body mass in kg): a whole record, metadata kept.
    @Test func aRowWithMetadataKeepsIt() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
        let start = SampleRowDecoderTests.start
        let saved = [SampleRecord(uuid: UUID(), typeIdentifier: bodyMass, startDate: start, endDate: start, value: .quantity(72.5, unit: "kg"),
                                  metadata: ["HKWasUserEntered": .bool(true), "note": .string("after <run>")])]
        let user = SourceRecord(bundleIdentifier: "@user", name: "Health")
        let expected = SampleRowDecoderTests.stored(saved, uuids: try await database.samples.insert(saved, source: user), source: user)
        let (records, batches) = try Self.fetched(database, SampleQuerySpec(typeIdentifier: bodyMass), scope: .allSources, batchSize: 500)
        #expect(records == expected)
        #expect(batches.first?.records.count == 1)
    }
}
