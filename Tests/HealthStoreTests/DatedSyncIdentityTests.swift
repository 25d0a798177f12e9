import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// An import's dated identities (issue 16, session 14; `SyncLookup`): identifiers healthctl derived
/// from a sample's type and start among the rest are keyed by their start (`SyncKey.dated`), so an
/// import's entries in the sync-key index follow the file's dates instead of landing on its leaves at
/// random. Whatever the two imports' marks, a re-import finds every sample; a mark outside an import
/// source changes nothing. Real encrypted stores (`SyncUpsertTests.withStore`), one dimension at a time.
@Suite(.timeLimit(.minutes(10))) struct DatedSyncIdentityTests {
    static let importSource = SyncKeyTests.importSource

    static func imported(_ count: Int) -> [SampleRecord] { (0..<count).map(SyncKeyTests.imported) }

    static func dated(_ count: Int) -> [Bool] { [Bool](repeating: true, count: count) }

    /// How many stored identifiers carry their dated key, and how many their plain one.
    static func keys(_ database: HealthDatabase) throws -> (dated: Int, plain: Int) {
        try database.writer.read { db in
            var counts = (dated: 0, plain: 0)
            for row in try Row.fetchAll(db, sql: "SELECT sync_identifier, start_us, sync_key FROM objects WHERE sync_identifier IS NOT NULL") {
                let identifier: String = row["sync_identifier"]
                let key: Int64? = row["sync_key"]
                if key == SyncKey.dated(identifier, startMicroseconds: row["start_us"]) { counts.dated += 1 }
                if key == SyncKey.of(identifier) { counts.plain += 1 }
            }
            return counts
        }
    }

    /// The dated key is fixed (stored on disk): the start's 2^26-µs period above the low 32 bits
    /// of the plain key (`SyncKeyTests` pins that one), for a start before 1970, at 0 and in 2023 —
    /// values computed outside this code (Python) — and it orders by start first.
    @Test(arguments: [
        (-86_400_000_000, -5_531_128_239_215),
        (0, 789_638_033),
        (1_700_000_000_000_000, 108_800_000_662_760_337),
    ] as [(Int64, Int64)])
    func theDatedKeyIsFixed(start: Int64, key: Int64) {
        #expect(SyncKey.dated("apple-health-import:0123456789abcdef0123456789abcdef", startMicroseconds: start) == key)
        #expect(SyncKey.dated("z", startMicroseconds: start) < SyncKey.dated("a", startMicroseconds: start + 100_000_000))
    }

    /// A dated import keys each identifier by its start; an undated one by `SyncKey.of`, as
    /// before. Without `SyncLookup.key` both are plain.
    @Test(arguments: [true, false])
    func aDatedImportKeysByStart(dated: Bool) async throws {
        try await SyncUpsertTests.withStore { database in
            let counts = try await database.samples.importBatch(Self.imported(300), dated: dated ? Self.dated(300) : [], source: Self.importSource)
            #expect(counts.added == 300)
            let keys = try Self.keys(database)
            #expect(keys.dated == (dated ? 300 : 0))
            #expect(keys.plain == (dated ? 0 : 300))
        }
    }

    /// A second import of the same samples adds nothing and changes nothing, for each pairing of
    /// the two imports' marks: undated then dated is a store imported before this change; dated
    /// then undated is an export's identifiers imported back, or an older healthctl. The mixed
    /// pairs fail without `SyncLookup.find`'s second search: all 300 are stored again.
    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func aReimportFindsEverySample(firstDated: Bool, againDated: Bool) async throws {
        try await SyncUpsertTests.withStore { database in
            let records = Self.imported(300)
            _ = try await database.samples.importBatch(records, dated: firstDated ? Self.dated(300) : [], source: Self.importSource)
            let before = try Self.uuids(database)
            // The same samples and one new one, in the other order.
            let again = Array((records + [SyncKeyTests.imported(300)]).reversed())
            let counts = try await database.samples.importBatch(again, dated: againDated ? Self.dated(301) : [], source: Self.importSource)
            #expect(counts.added == 1)
            #expect(counts.unchanged == 300)
            let after = try Self.uuids(database)
            #expect(after.count == 301)
            #expect(before.isSubset(of: after))
            #expect(try SyncUpsertTests.deletedRows(database).isEmpty)
        }
    }

    /// A higher version of a dated sample replaces it (recorded as deleted), marked or not: the
    /// upsert's rules are the same whichever key finds the object.
    @Test(arguments: [true, false])
    func aHigherVersionReplacesADatedSample(againDated: Bool) async throws {
        try await SyncUpsertTests.withStore { database in
            _ = try await database.samples.importBatch([SyncKeyTests.imported(7)], dated: [true], source: Self.importSource)
            var newer = SyncKeyTests.imported(7)
            newer.metadata[HKMetadataKeySyncVersion] = .number(2)
            let counts = try await database.samples.importBatch([newer], dated: [againDated], source: Self.importSource)
            #expect(counts.added == 1)
            #expect(try Self.uuids(database).count == 1)
            #expect(try SyncUpsertTests.deletedRows(database).count == 1)
        }
    }

    /// Two samples of one batch with one dated identifier are stored once: the write's own upsert
    /// (no look-ahead when identifiers repeat) finds the first under its dated key.
    @Test func aBatchRepeatingADatedIdentifierStoresItOnce() async throws {
        try await SyncUpsertTests.withStore { database in
            let record = SyncKeyTests.imported(3)
            _ = try await database.samples.importBatch([record, record], dated: [true, true], source: Self.importSource)
            #expect(try Self.uuids(database).count == 1)
        }
    }

    /// A mark only counts in an import's own source (`SourceRecord.isImported`): in an app's source
    /// the identity keeps its plain key, so the app's later edit under the same identifier at
    /// another start still replaces it.
    @Test func aMarkOutsideAnImportSourceChangesNothing() async throws {
        try await SyncUpsertTests.withStore { database in
            let app = SyncUpsertTests.source("app")
            _ = try await database.samples.importBatch([SyncUpsertTests.sample(sync: "night-1", version: 1, minute: 0)], dated: [true], source: app)
            #expect(try Self.keys(database).plain == 1)
            _ = try await database.samples.insert([SyncUpsertTests.sample(sync: "night-1", version: 2, minute: 90)], source: app)
            #expect(try SyncUpsertTests.stored(database).count == 1)
            #expect(try SyncUpsertTests.deletedRows(database).count == 1)
        }
    }

    /// The stored objects' UUIDs, as their bytes.
    static func uuids(_ database: HealthDatabase) throws -> Set<Data> {
        try database.writer.read { db in Set(try Data.fetchAll(db, sql: "SELECT uuid FROM objects")) }
    }
}
