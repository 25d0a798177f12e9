import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// HKMetadataKeySyncIdentifier upserts on a real encrypted store: scoped to the saving source,
/// a higher version replaces (and is recorded as deleted), a lower or equal one is ignored.
@Suite(.timeLimit(.minutes(10))) struct SyncUpsertTests {
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"

    static func sample(sync identifier: String, version: Double, value: Int = 1, minute: Int = 0) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: sleepType, startDate: start, endDate: start.addingTimeInterval(60),
                            value: .category(value),
                            metadata: [HKMetadataKeySyncIdentifier: .string(identifier), HKMetadataKeySyncVersion: .number(version)])
    }

    static func source(_ name: String) -> SourceRecord {
        SourceRecord(bundleIdentifier: "org.example.\(name)", name: name, version: "1")
    }

    /// Runs `body` against a freshly created encrypted store.
    static func withStore(_ body: (HealthDatabase) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        try await body(database)
        try store.close()
    }

    static func stored(_ database: HealthDatabase) throws -> [SampleRecord] {
        var found: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: sleepType), scope: .allSources) { found += $0 }
        return found
    }

    static func deletedRows(_ database: HealthDatabase) throws -> [Row] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT uuid, sync_identifier, sync_version FROM deleted_objects ORDER BY change_seq")
        }
    }

    @Test func higherVersionReplacesAndIsRecordedAsDeleted() async throws {
        try await Self.withStore { database in
            let first = try await database.samples.insert([Self.sample(sync: "night-1", version: 1, value: 0)], source: Self.source("a"))
            let second = try await database.samples.insert([Self.sample(sync: "night-1", version: 2, value: 1)], source: Self.source("a"))
            #expect(first != second)
            let stored = try Self.stored(database)
            #expect(stored.map(\.uuid) == second)
            #expect(stored.first?.value == .category(1))
            let deleted = try Self.deletedRows(database)
            #expect(deleted.count == 1)
            #expect(deleted.first?["uuid"] == first[0])
            #expect(deleted.first?["sync_identifier"] == "night-1")
            #expect(deleted.first?["sync_version"] == 1 as Int64)
        }
    }

    @Test(arguments: [1.0, 2.0])
    func lowerOrEqualVersionIsIgnoredAndAnswersWithTheStoredUUID(version: Double) async throws {
        try await Self.withStore { database in
            let kept = try await database.samples.insert([Self.sample(sync: "night-1", version: 2, value: 0)], source: Self.source("a"))
            let ignored = try await database.samples.insert([Self.sample(sync: "night-1", version: version, value: 1)], source: Self.source("a"))
            #expect(ignored == kept)
            let stored = try Self.stored(database)
            #expect(stored.map(\.uuid) == kept)
            #expect(stored.first?.value == .category(0))
            #expect(try Self.deletedRows(database).isEmpty)
        }
    }

    @Test func anotherSourcesObjectWithTheSameIdentifierIsUntouched() async throws {
        try await Self.withStore { database in
            let mine = try await database.samples.insert([Self.sample(sync: "night-1", version: 5)], source: Self.source("a"))
            let theirs = try await database.samples.insert([Self.sample(sync: "night-1", version: 1)], source: Self.source("b"))
            let theirsReplaced = try await database.samples.insert([Self.sample(sync: "night-1", version: 2)], source: Self.source("b"))
            let stored = try Self.stored(database)
            #expect(Set(stored.map(\.uuid)) == Set(mine + theirsReplaced))
            #expect(try Self.deletedRows(database).map { $0["uuid"] as UUID } == theirs)
        }
    }

    @Test func samplesWithoutSyncIdentityAreNeverReplaced() async throws {
        try await Self.withStore { database in
            let plain = SampleRecord(uuid: UUID(), typeIdentifier: Self.sleepType, startDate: Date(timeIntervalSince1970: 1_700_000_000),
                                     endDate: Date(timeIntervalSince1970: 1_700_000_060), value: .category(0))
            let first = try await database.samples.insert([plain], source: Self.source("a"))
            let second = try await database.samples.insert([plain], source: Self.source("a"))
            #expect(Set(try Self.stored(database).map(\.uuid)) == Set(first + second))
        }
    }

    @Test func aFailingSaveRollsBackItsReplacement() async throws {
        try await Self.withStore { database in
            let kept = try await database.samples.insert([Self.sample(sync: "night-1", version: 1)], source: Self.source("a"))
            // The replacement comes first in the save; the second record breaks the objects
            // table's CHECK (start after end), so the whole save, deletion included, is undone.
            var broken = Self.sample(sync: "night-2", version: 1, minute: 10)
            broken.endDate = broken.startDate.addingTimeInterval(-60)
            await #expect(throws: (any Error).self) {
                try await database.samples.insert([Self.sample(sync: "night-1", version: 2), broken], source: Self.source("a"))
            }
            #expect(try Self.stored(database).map(\.uuid) == kept)
            #expect(try Self.deletedRows(database).isEmpty)
        }
    }
}
