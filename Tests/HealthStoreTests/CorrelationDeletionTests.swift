import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// A correlation leaves the store with its samples, whichever path removes it (`ObjectDeleter`),
/// and an app's deletion of its own correlation needs share permission for each type the stored
/// correlation holds, decided in the deletion's transaction (`OwnCorrelationShares`).
@Suite(.timeLimit(.minutes(10))) struct CorrelationDeletionTests {
    static let app = "org.example.cuff"
    static let source = SourceRecord(bundleIdentifier: app, name: "Cuff", version: "1")
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func reading(_ high: Double, sync version: Double? = nil) -> SampleRecord {
        func half(_ type: String, _ value: Double) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start, value: .quantity(value, unit: "mmHg"))
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: bloodPressure, startDate: start, endDate: start,
                            value: .correlation([half(systolic, high), half(diastolic, 80)]),
                            metadata: version.map { [HKMetadataKeySyncIdentifier: .string("cuff-1"), HKMetadataKeySyncVersion: .number($0)] } ?? [:])
    }

    static func database() throws -> HealthDatabase {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try database.apps.install(AppManifest(id: app, displayName: "Cuff", executable: "/usr/bin/true", version: "1"))
        return database
    }

    static func share(_ database: HealthDatabase, systolic: AuthorizationDecision, diastolic: AuthorizationDecision) throws {
        try database.grants.apply(appID: app, [GrantDecision(Self.systolic, .share, systolic), GrantDecision(Self.diastolic, .share, diastolic)])
    }

    /// The stored UUIDs of each type, and the deleted ones.
    static func stored(_ database: HealthDatabase) throws -> (objects: Int, deleted: Set<UUID>) {
        try database.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? -1,
             Set(try UUID.fetchAll(db, sql: "SELECT uuid FROM deleted_objects")))
        }
    }

    @Test func anAppDeletesItsCorrelationWithItsSamplesOnlyWhenItSharesEveryTypeItHolds() async throws {
        let database = try Self.database()
        try Self.share(database, systolic: .authorized, diastolic: .authorized)
        let uuids = try await database.samples.insert([Self.reading(120)], source: Self.source)  // correlation, systolic, diastolic
        let reference = ObjectReference(typeIdentifier: Self.bloodPressure, uuid: uuids[0])

        // One contained type no longer shared: refused, with that type's refusal; nothing goes.
        try Self.share(database, systolic: .authorized, diastolic: .denied)
        let refusal = try #require(HKError.shareRefusal(Self.diastolic, .denied))
        await #expect(throws: refusal) {
            try await database.samples.delete([reference], appID: Self.app)
        }
        await #expect(throws: refusal) {
            try await database.samples.deleteMatching(typeIdentifier: Self.bloodPressure, predicate: nil, appID: Self.app,
                                                      workouts: .ownSamples(appID: Self.app))
        }
        #expect(try Self.stored(database).objects == 3)

        try Self.share(database, systolic: .authorized, diastolic: .authorized)
        #expect(try await database.samples.delete([reference], appID: Self.app) == 1)
        let after = try Self.stored(database)
        #expect(after.objects == 0)
        #expect(after.deleted == Set(uuids))
    }

    @Test func aReplacedCorrelationTakesItsOldSamplesAlong() async throws {
        let database = try Self.database()
        let first = try await database.samples.insert([Self.reading(120, sync: 1)], source: Self.source)
        let second = try await database.samples.insert([Self.reading(130, sync: 2)], source: Self.source)
        let after = try Self.stored(database)
        #expect(after.objects == 3)  // the new correlation and its two samples only
        #expect(after.deleted == Set(first))
        #expect(Set(second).isDisjoint(with: first))
    }

    @Test func theUsersDeletionOfACorrelationTakesItsSamplesToo() async throws {
        let database = try Self.database()
        let uuids = try await database.samples.insert([Self.reading(120)], source: Self.source)
        #expect(try await database.samples.deleteAnySource(uuids: [uuids[0]], dryRun: false) == 1)
        let after = try Self.stored(database)
        #expect(after.objects == 0)
        #expect(after.deleted == Set(uuids))
    }
}
