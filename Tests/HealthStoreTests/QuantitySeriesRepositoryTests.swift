import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Quantity series in the store (issue 15, v23): the sample's row holds the sum or average and
/// its count; a fetched sample carries the summary; the quantities come back under the reader's
/// scope, a single-quantity sample as one; statistics read a series quantity by quantity;
/// deleting the sample removes its quantities.
@Suite(.timeLimit(.minutes(10))) struct QuantitySeriesRepositoryTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let data = [(0.0, 60.0, 10.0), (60, 120, 25), (3_600, 3_660, 30)].map { start, end, value in
        QuantitySeriesDatum(value: value, start: Self.start.addingTimeInterval(start), end: Self.start.addingTimeInterval(end))
    }

    /// A step series as healthd stores it: validated and summarized by `SampleValidator`.
    static func series(_ data: [QuantitySeriesDatum] = data) throws -> SampleRecord {
        let record = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(3_660),
                                  value: .quantity(0, unit: "count"),
                                  quantitySeries: QuantitySeries(count: data.count, minimum: 0, maximum: 0, mostRecent: 0,
                                                                 mostRecentStart: start, mostRecentEnd: start, data: data))
        return try SampleValidator.canonicalized(record)
    }

    static func quantities(_ database: HealthDatabase, _ uuid: UUID, _ scope: ReadScope) throws -> [QuantitySeriesDatum] {
        var read: [QuantitySeriesDatum] = []
        try database.samples.seriesPoints(uuid, typeIdentifier: steps, scope: scope, batchSize: 2) { first, points, _ in
            #expect(first == read.count)
            guard case let .quantities(more) = points else {
                Issue.record("not quantities: \(points)")
                return
            }
            read += more
        }
        return read
    }

    /// The validator replaces whatever summary a client sent with the one of its quantities.
    @Test func aFetchedSeriesCarriesItsSumAndSummaryAndTheQueryItsQuantities() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let single = SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: Self.start, endDate: Self.start.addingTimeInterval(60),
                                  value: .quantity(7, unit: "count"))
        let uuids = try await database.samples.insert([try Self.series(), single], source: Self.owner)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.steps), scope: .allSources) { fetched += $0 }
        let series = try #require(fetched.first { $0.uuid == uuids[0] })
        #expect(series.value == .quantity(65, unit: "count"))
        #expect(series.quantitySeries == QuantitySeries(count: 3, minimum: 10, maximum: 30, mostRecent: 30,
                                                        mostRecentStart: Self.data[2].start, mostRecentEnd: Self.data[2].end))
        #expect(fetched.first { $0.uuid == uuids[1] }?.quantitySeries == nil)
        #expect(try Self.quantities(database, uuids[0], .allSources) == Self.data)
        #expect(try Self.quantities(database, uuids[1], .allSources)
            == [QuantitySeriesDatum(value: 7, start: Self.start, end: Self.start.addingTimeInterval(60))])
    }

    /// Another source's series, and a UUID naming nothing, fail alike for a reader without read
    /// permission; the owner reads its own.
    @Test func anotherSourcesSeriesReadsLikeOneThatDoesNotExist() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuid = try await database.samples.insert([try Self.series()], source: Self.owner)[0]
        #expect(try Self.quantities(database, uuid, .ownSamples(appID: Self.owner.bundleIdentifier)) == Self.data)
        var messages: [String] = []
        for candidate in [uuid, UUID()] {
            do {
                _ = try Self.quantities(database, candidate, .ownSamples(appID: "org.example.stranger"))
                Issue.record("read a series outside the scope")
            } catch let error as HKError {
                #expect(error.code == .errorNoData)
                messages.append(error.message)
            }
        }
        #expect(Set(messages).count == 1)
    }

    /// Statistics get a series' quantities, each over its own interval, in start order among the
    /// source's other samples — not the sample's sum over its whole span.
    @Test func statisticsReadASeriesQuantityByQuantity() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let later = SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: Self.start.addingTimeInterval(600),
                                 endDate: Self.start.addingTimeInterval(660), value: .quantity(5, unit: "count"))
        _ = try await database.samples.insert([try Self.series(), later], source: Self.owner)
        let sources = try database.statistics.samples(typeIdentifier: Self.steps, predicate: nil, scope: Visibility(scope: .allSources, workouts: .allSources, correlations: .allSources))
        #expect(sources.count == 1)
        #expect(sources.first?.samples.map { [$0.span.start, $0.span.end] } == [[0, 60], [60, 120], [600, 660], [3_600, 3_660]].map { pair in
            pair.map { Self.start.addingTimeInterval(Double($0)).microsecondsSince1970 }
        })
        #expect(sources.first?.samples.map { $0.value } == [10, 25, 5, 30])
    }

    @Test func deletingTheSampleRemovesItsQuantities() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuid = try await database.samples.insert([try Self.series()], source: Self.owner)[0]
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: Self.steps, uuid: uuid)], appID: Self.owner.bundleIdentifier)
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM quantity_series") }
        #expect(left == 0)
    }

    /// The rules healthd applies to a saved series: order, overlap, bounds, finiteness.
    @Test(arguments: [
        [(0.0, 60.0, 1.0), (30, 90, 1)],     // overlapping
        [(60, 120, 1), (0, 60, 1)],          // out of start order
        [(0, 0, 1), (0, 0, 2)],              // two at one instant
        [(-1, 0, 1)],                        // before the sample's start
        [(0, 4_000, 1)],                     // after its end
        [(0, 60, .nan)],                     // not a number
        [(0, 60, -1)],                       // a negative step count
    ])
    func aSeriesHealthKitWouldNotBuildIsRefused(spans: [(Double, Double, Double)]) throws {
        let data = spans.map { start, end, value in
            QuantitySeriesDatum(value: value, start: Self.start.addingTimeInterval(start), end: Self.start.addingTimeInterval(end))
        }
        #expect(throws: HKError.self) { _ = try Self.series(data) }
    }
}
