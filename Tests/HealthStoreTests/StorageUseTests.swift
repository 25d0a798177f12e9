import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `StorageUse`: the writer charges each app's objects as it commits them, gives them back as it
/// deletes them (less their tombstones), charges nobody for the user's entries and imports, forgets
/// what a rolled-back save charged, writes the counts lazily and seeds them at open.
@Suite(.timeLimit(.minutes(10))) struct StorageUseTests {
    struct Refused: Error {}

    static let app = SourceRecord(bundleIdentifier: "org.example.steps", name: "Steps", version: "1")
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func steps(_ index: Int, metadata: [String: MetadataValue] = [:], device: DeviceRecord? = nil) -> SampleRecord {
        let date = start.addingTimeInterval(Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: date,
                            endDate: date.addingTimeInterval(60), value: .quantity(Double(index % 100), unit: "count"),
                            metadata: metadata, device: device)
    }

    static func persisted(_ database: HealthDatabase) throws -> [String: Int64] {
        try database.writer.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT app_id, used FROM app_storage").map {
                ($0["app_id"] as String, $0["used"] as Int64)
            })
        }
    }

    @Test func aSaveChargesItsAppAndADeletionGivesItBackLessTheTombstone() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let records = (0..<10).map { Self.steps($0, metadata: ["note": .string("a walk")]) }
        let uuids = try await database.samples.insert(records, source: Self.app)
        let charged = records.reduce(Int64(0)) { $0 + StoredSize.charge(of: $1, sync: nil, sourceVersion: Self.app.version) }
        #expect(charged > 10 * StoredSize.objectRow)
        #expect(database.storage.used(appID: Self.app.bundleIdentifier) == charged)
        #expect(database.storage.used(appID: Self.other.bundleIdentifier) == 0)

        let deleted = try await database.samples.delete(uuids.map { ObjectReference(typeIdentifier: records[0].typeIdentifier, uuid: $0) },
                                                        appID: Self.app.bundleIdentifier)
        #expect(deleted == 10)
        #expect(database.storage.used(appID: Self.app.bundleIdentifier) == 10 * StoredSize.tombstone(syncIdentifier: nil))
    }

    /// The user's own entries (`@user`) and imports (`@import/…`) are the user's data: no app is
    /// charged, and no row of theirs carries a charge.
    @Test func theUsersEntriesAndImportsChargeNobody() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([Self.steps(1)], source: CharacteristicRepository.userSource)
        _ = try await database.samples.importBatch([Self.steps(2)], source: SourceRecord(bundleIdentifier: SourceRecord.importedPrefix + "Apple Health/Watch", name: "Watch"))
        #expect(database.storage.entries.isEmpty)
        let charges = try await database.writer.read { try Int.fetchOne($0, sql: "SELECT count(charged) FROM objects") }
        #expect(charges == 0)
    }

    /// An object's device is charged with it and kept when it is deleted (device rows are shared
    /// and stay); it does not depend on whether another app saved that device first. A new row's
    /// whole size (the text three times) goes with the first object of a write that names the
    /// device, a reference with each following object naming it again.
    @Test func eachObjectsDeviceIsChargedAndKept() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let device = DeviceRecord(name: String(repeating: "d", count: 1_000), manufacturer: "Maker")
        _ = try await database.samples.insert([Self.steps(0, device: device)], source: Self.other)
        let uuids = try await database.samples.insert([Self.steps(1, device: device), Self.steps(2, device: device)], source: Self.app)
        let samples = 2 * StoredSize.charge(of: Self.steps(1, device: device), sync: nil, sourceVersion: Self.app.version)
        #expect(StoredSize.device(device) >= StoredSize.deviceReference + 3 * 1_005)
        let devices = StoredSize.device(device) + StoredSize.deviceReference
        #expect(database.storage.used(appID: Self.app.bundleIdentifier) == samples + devices)
        _ = try await database.samples.delete(uuids.map { ObjectReference(typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, uuid: $0) },
                                              appID: Self.app.bundleIdentifier)
        #expect(database.storage.used(appID: Self.app.bundleIdentifier)
                == devices + 2 * StoredSize.tombstone(syncIdentifier: nil))
    }

    /// A save that fails inside a shared commit is rolled back to its savepoint: its charge goes
    /// with it while the others' stand. (As `GroupCommitQueue` runs a group of saves.)
    @Test func aSaveRolledBackToItsSavepointChargesNothing() throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let refused = try database.writer.writeWithoutTransaction { db -> Bool in
            try CachedTransaction.run(db) { () throws -> Bool in
                try CachedTransaction.inSavepoint(db) { _ = try SampleRepository.write([Self.steps(1)], source: Self.other, db) }
                do {
                    try CachedTransaction.inSavepoint(db) {
                        _ = try SampleRepository.write([Self.steps(2), Self.steps(3)], source: Self.app, db)
                        throw Refused()
                    }
                    return false
                } catch is Refused {
                    return true
                }
            }
        }
        #expect(refused)
        #expect(database.storage.used(appID: Self.app.bundleIdentifier) == 0)
        #expect(database.storage.used(appID: Self.other.bundleIdentifier) == StoredSize.charge(of: Self.steps(1), sync: nil, sourceVersion: Self.other.version))
        // A whole transaction rolled back charges nothing either.
        try? database.writer.writeWithoutTransaction { db in
            try CachedTransaction.run(db) {
                _ = try SampleRepository.write([Self.steps(4)], source: Self.app, db)
                throw Refused()
            }
        }
        #expect(database.storage.used(appID: Self.app.bundleIdentifier) == 0)
    }

    /// A newer version of a synced object replaces the old one: the old is given back.
    @Test func aSyncReplacementGivesTheOldObjectBack() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        func synced(_ version: Double, note: String) -> SampleRecord {
            Self.steps(1, metadata: [HKMetadataKeySyncIdentifier: .string("day-1"), HKMetadataKeySyncVersion: .number(version), "note": .string(note)])
        }
        let first = synced(1, note: String(repeating: "x", count: 5_000))
        let second = synced(2, note: "short")
        _ = try await database.samples.insert([first], source: Self.app)
        _ = try await database.samples.insert([second], source: Self.app)
        let sync = second.syncIdentity
        #expect(database.storage.used(appID: Self.app.bundleIdentifier)
                == StoredSize.charge(of: second, sync: sync, sourceVersion: Self.app.version) + StoredSize.tombstone(syncIdentifier: "day-1"))
    }

    /// Counts are written once they move by the threshold, in a commit that runs anyway, and all of
    /// them at `persistStorageUse`; a store opened again is seeded from what was written.
    @Test func countsAreWrittenLazilyAndSeedTheNextOpening() async throws {
        let writer = try DatabaseQueue()
        let storage = StorageUse(persistThreshold: 8 * 1_024)
        let database = try HealthDatabase(writer: writer, storage: storage)
        _ = try await database.samples.insert([Self.steps(1)], source: Self.app)
        #expect(try Self.persisted(database)[Self.app.bundleIdentifier] == nil, "written before it moved by the threshold")
        var index = 2
        while try Self.persisted(database)[Self.app.bundleIdentifier] == nil, index < 1_000 {
            _ = try await database.samples.insert([Self.steps(index)], source: Self.app)
            index += 1
        }
        let written = try #require(try Self.persisted(database)[Self.app.bundleIdentifier])
        #expect(written >= 8 * 1_024 && written == storage.used(appID: Self.app.bundleIdentifier))
        _ = try await database.samples.insert([Self.steps(index)], source: Self.app)
        #expect(try Self.persisted(database)[Self.app.bundleIdentifier] == written, "written again before moving by the threshold")

        try database.persistStorageUse()
        let reopened = try HealthDatabase(writer: writer)
        #expect(reopened.storage.used(appID: Self.app.bundleIdentifier) == storage.used(appID: Self.app.bundleIdentifier))
    }

    /// Whether an app's row is written depends on its own moves alone: one app saving a lot leaves
    /// another's row untouched while that one has moved less than the threshold, and the store's
    /// close writes it. Failed before: once any app's row was due, every app half the threshold
    /// from its row was written too, so an app's row (what seeds it after a crash) followed other
    /// apps' save volume (privacy review, session 21, finding 4).
    @Test func anAppsRowIsWrittenForItsOwnMovesOnly() async throws {
        let threshold: Int64 = 8 * 1_024
        let storage = StorageUse(persistThreshold: threshold)
        let database = try HealthDatabase(writer: try DatabaseQueue(), storage: storage)
        let quiet = Self.other.bundleIdentifier
        var index = 0
        // The quiet app moves between half the threshold and the threshold: due for neither rule alone.
        while storage.used(appID: quiet) < threshold * 5 / 8 {
            _ = try await database.samples.insert([Self.steps(index)], source: Self.other)
            index += 1
        }
        let quietUsed = storage.used(appID: quiet)
        try #require(quietUsed < threshold, "one save moved the quiet app \(quietUsed) past the threshold")
        #expect(try Self.persisted(database)[quiet] == nil)
        // The busy app saves four thresholds' worth, in saves of ten.
        while storage.used(appID: Self.app.bundleIdentifier) < threshold * 4 {
            _ = try await database.samples.insert((index..<index + 10).map { Self.steps($0) }, source: Self.app)
            index += 10
        }
        let rows = try Self.persisted(database)
        #expect(rows[Self.app.bundleIdentifier] != nil, "the busy app's row was never written")
        #expect(rows[quiet] == nil, "the quiet app's row was written at \(rows[quiet] ?? 0) (its count \(quietUsed), the threshold \(threshold))")
        try database.persistStorageUse()
        #expect(try Self.persisted(database)[quiet] == quietUsed, "the close did not write the quiet app's count")
    }

    /// The bound the user sets is kept, and an app without one has the default.
    @Test func aBoundSetIsKeptAndTheDefaultStandsOtherwise() throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer, storage: StorageUse(defaultBound: 1 << 30))
        try database.setStorageBound(1 << 20, appID: Self.app.bundleIdentifier)
        #expect(database.storage.bound(appID: Self.app.bundleIdentifier) == 1 << 20)
        #expect(database.storage.bound(appID: Self.other.bundleIdentifier) == 1 << 30)
        #expect(database.storage.excess(appID: Self.app.bundleIdentifier, adding: 1 << 20) == nil)
        #expect(database.storage.excess(appID: Self.app.bundleIdentifier, adding: (1 << 20) + 1)?.bound == 1 << 20)
        let reopened = try HealthDatabase(writer: writer)
        #expect(reopened.storage.bound(appID: Self.app.bundleIdentifier) == 1 << 20)
        try reopened.setStorageBound(nil, appID: Self.app.bundleIdentifier)
        #expect(reopened.storage.bound(appID: Self.app.bundleIdentifier) == StorageUse.defaultBytesPerApp)
    }

    /// Objects stored before v66 have no charge: the migration counts them by the legacy estimate,
    /// and deleting one gives the same estimate back (less its tombstone).
    @Test func objectsStoredBeforeTheMigrationAreCountedAndGivenBack() async throws {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: "v64: the change number of each workout association")
        let old = try HealthDatabaseBeforeV66.save([Self.steps(1, metadata: ["note": .string("before")]), Self.steps(2)],
                                                   source: Self.app, writer)
        let database = try HealthDatabase(writer: writer)
        let metadataBytes = try await writer.read { try Int64.fetchOne($0, sql: "SELECT sum(length(CAST(metadata AS BLOB))) FROM objects") ?? 0 }
        let expected = 2 * StoredSize.objectRow + metadataBytes
        #expect(database.storage.used(appID: Self.app.bundleIdentifier) == expected)
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, uuid: old[0])],
                                              appID: Self.app.bundleIdentifier)
        #expect(database.storage.used(appID: Self.app.bundleIdentifier)
                == StoredSize.objectRow + StoredSize.tombstone(syncIdentifier: nil))
    }
}

/// Objects written as a store before v66 held them: through the save path on a connection no
/// `StorageUse` is attached to, then the `charged` column is not there yet (the insert names it, so
/// the rows are copied in by hand).
enum HealthDatabaseBeforeV66 {
    static func save(_ records: [SampleRecord], source: SourceRecord, _ writer: DatabaseQueue) throws -> [UUID] {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO sources (bundle_identifier, name) VALUES (?, ?)", arguments: [source.bundleIdentifier, source.name])
            let sourceID = db.lastInsertedRowID
            try db.execute(sql: "INSERT OR IGNORE INTO sample_types (identifier) VALUES (?)", arguments: [records[0].typeIdentifier])
            let typeID = try Int64.fetchOne(db, sql: "SELECT id FROM sample_types WHERE identifier = ?", arguments: [records[0].typeIdentifier])!
            var text: [UInt8] = []
            return try records.map { record in
                let uuid = UUID()
                let metadata = MetadataCoding.encode(record.metadata, into: &text) ? String(decoding: text, as: UTF8.self) : nil
                guard case let .quantity(value, _) = record.value else { throw HKError(.errorInvalidArgument, "quantities only") }
                try db.execute(sql: """
                    INSERT INTO objects (uuid, type_id, source_id, start_us, end_us, quantity, metadata, change_seq)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 1)
                    """, arguments: [uuid, typeID, sourceID, record.startDate.microsecondsSince1970, record.endDate.microsecondsSince1970,
                                     value, metadata])
                return uuid
            }
        }
    }
}
