import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Heartbeat series and ECGs in the store: a fetched sample carries counts and summary only;
/// the points come back in order, in batches, under the reader's scope; another source's series
/// reads exactly like one that does not exist; deleting the sample removes its points.
@Suite(.timeLimit(.minutes(10))) struct SeriesRepositoryTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let beats = (0..<10).map { Heartbeat(timeSinceSeriesStart: 0.5 + Double($0) * 0.75, precededByGap: $0 == 4) }
    static let voltages = (0..<9_000).map { sin(Double($0) / 40) * 1e-3 }

    static func series() -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierHeartbeatSeries, startDate: start,
                     endDate: start.addingTimeInterval(10), value: .heartbeatSeries(HeartbeatSeriesValue(beats: beats)))
    }

    static func ecg() -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKElectrocardiogramTypeIdentifier, startDate: start,
                     endDate: start.addingTimeInterval(30),
                     value: .electrocardiogram(ElectrocardiogramValue(classification: 2, symptomsStatus: 2, averageHeartRate: 88,
                                                                      samplingFrequency: 300, voltageCount: voltages.count, voltages: voltages)))
    }

    static func stored(_ database: HealthDatabase) async throws -> (series: UUID, ecg: UUID) {
        let uuids = try await database.samples.insert([series(), ecg()], source: owner)
        return (uuids[0], uuids[1])
    }

    static func points(_ database: HealthDatabase, _ uuid: UUID, _ type: String, _ scope: ReadScope,
                       batchSize: Int = 4_096) throws -> (SeriesPoints?, batches: Int) {
        var beats: [Heartbeat] = []
        var voltages: [Double] = []
        var batches = 0
        var sawDone = false
        try database.samples.seriesPoints(uuid, typeIdentifier: type, scope: scope, batchSize: batchSize) { first, points, done in
            #expect(!sawDone)
            #expect(first == beats.count + voltages.count)
            batches += 1
            sawDone = done
            switch points {
            case let .heartbeats(more): beats += more
            case let .voltages(more): voltages += more
            case .quantities: Issue.record("quantities for a \(type)")
            }
        }
        #expect(sawDone)
        return (type == HKElectrocardiogramTypeIdentifier ? .voltages(voltages) : .heartbeats(beats), batches)
    }

    @Test func aFetchedSeriesCarriesItsCountAndTheQueryItsPoints() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let (series, ecg) = try await Self.stored(database)
        var fetched: [SampleRecord] = []
        for type in [HKDataTypeIdentifierHeartbeatSeries, HKElectrocardiogramTypeIdentifier] {
            try database.samples.query(SampleQuerySpec(typeIdentifier: type), scope: .allSources) { fetched += $0 }
        }
        #expect(fetched.map(\.value) == [
            .heartbeatSeries(HeartbeatSeriesValue(count: 10)),
            .electrocardiogram(ElectrocardiogramValue(classification: 2, symptomsStatus: 2, averageHeartRate: 88, samplingFrequency: 300,
                                                      voltageCount: Self.voltages.count)),
        ])
        #expect(try Self.points(database, series, HKDataTypeIdentifierHeartbeatSeries, .allSources).0 == .heartbeats(Self.beats))
        let (read, batches) = try Self.points(database, ecg, HKElectrocardiogramTypeIdentifier, .allSources, batchSize: 4_096)
        #expect(read == .voltages(Self.voltages))
        #expect(batches == 3)
    }

    /// The owner reads its own series without read permission; another app's scope and a UUID
    /// that names nothing fail alike; so does naming the series under the other series type.
    @Test func anotherSourcesSeriesReadsLikeOneThatDoesNotExist() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let (series, ecg) = try await Self.stored(database)
        #expect(try Self.points(database, series, HKDataTypeIdentifierHeartbeatSeries, .ownSamples(appID: Self.owner.bundleIdentifier)).0
            == .heartbeats(Self.beats))
        var messages: [String] = []
        for (uuid, type, scope) in [
            (series, HKDataTypeIdentifierHeartbeatSeries, ReadScope.ownSamples(appID: "org.example.other")),
            (UUID(), HKDataTypeIdentifierHeartbeatSeries, ReadScope.ownSamples(appID: "org.example.other")),
            (ecg, HKElectrocardiogramTypeIdentifier, ReadScope.recentWindow(appID: "org.example.other", since: Self.start.addingTimeInterval(1))),
            (series, HKElectrocardiogramTypeIdentifier, ReadScope.allSources),
        ] {
            do {
                _ = try Self.points(database, uuid, type, scope)
                Issue.record("\(uuid) \(type) was readable under \(scope)")
            } catch let error as HKError {
                #expect(error.code == .errorNoData)
                messages.append(error.message)
            }
        }
        #expect(messages[0] == messages[1])
    }

    @Test func deletingASeriesRemovesItsPoints() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let (series, ecg) = try await Self.stored(database)
        let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: HKDataTypeIdentifierHeartbeatSeries, uuid: series),
                                                         ObjectReference(typeIdentifier: HKElectrocardiogramTypeIdentifier, uuid: ecg)],
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 2)
        let left = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM heartbeat_series) + (SELECT count(*) FROM electrocardiograms)")
        }
        #expect(left == 0)
    }
}
