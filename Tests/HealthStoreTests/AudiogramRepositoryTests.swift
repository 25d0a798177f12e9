import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Audiograms in the store (v26 `audiograms`, `audiogram_tests`): points come back in order with
/// every test's side, mask and clamping bounds, one-ear points and zero-point samples included;
/// deleting the sample removes its rows; a missing side row is an integrity error, not an empty
/// audiogram.
@Suite(.timeLimit(.minutes(10))) struct AudiogramRepositoryTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let points = [
        AudiogramValue.Point(frequency: 500, tests: [AudiogramValue.Test(sensitivity: 10, side: 0),
                                                     AudiogramValue.Test(sensitivity: 15, masked: true, side: 1,
                                                                         clampingLowerBound: -10, clampingUpperBound: 100)]),
        AudiogramValue.Point(frequency: 1000, tests: [AudiogramValue.Test(sensitivity: 20, side: 1, clampingUpperBound: 80)]),
        AudiogramValue.Point(frequency: 2000, tests: [AudiogramValue.Test(sensitivity: 35, side: 0)]),
    ]

    static func record(_ points: [AudiogramValue.Point]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierAudiogram, startDate: date, endDate: date.addingTimeInterval(600),
                     value: .audiogram(AudiogramValue(points: points)))
    }

    static func fetchAll(_ database: HealthDatabase) throws -> [SampleRecord] {
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierAudiogram), scope: .allSources) { fetched += $0 }
        return fetched
    }

    @Test func pointsAndTestsRoundTripInOrder() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.record(Self.points), Self.record([])], source: Self.owner)
        let fetched = try Self.fetchAll(database)
        #expect(Set(fetched.map(\.value)) == [.audiogram(AudiogramValue(points: Self.points)), .audiogram(AudiogramValue(points: []))])
    }

    @Test func deletingAnAudiogramRemovesItsRows() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.record(Self.points)], source: Self.owner)
        let counts = { () async throws -> [Int] in
            try await database.writer.read { db in
                [try Int.fetchOne(db, sql: "SELECT count(*) FROM audiograms") ?? -1,
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM audiogram_tests") ?? -1]
            }
        }
        #expect(try await counts() == [1, 4])
        let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: HKDataTypeIdentifierAudiogram, uuid: uuids[0])],
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 1)
        #expect(try await counts() == [0, 0])
    }

    @Test func aMissingSideRowIsAnIntegrityErrorNotAnEmptyAudiogram() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.record([])], source: Self.owner)
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM audiograms") }
        #expect(throws: StoreIntegrityError.self) { try Self.fetchAll(database) }
    }

    @Test func aMissingTestRowIsAnIntegrityError() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.record(Self.points)], source: Self.owner)
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM audiogram_tests WHERE point = 2") }
        #expect(throws: StoreIntegrityError.self) { try Self.fetchAll(database) }
    }
}
