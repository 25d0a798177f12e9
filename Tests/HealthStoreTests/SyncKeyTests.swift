import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The sync-identifier index keyed by `SyncKey` (v36, issue 16): the key is fixed, only a filter
/// (an identifier is always compared whole), every identifier stored before v36 is found after it,
/// and the index costs a fraction of the pages the identifier texts did.
@Suite(.timeLimit(.minutes(10))) struct SyncKeyTests {
    /// Keys are stored on disk: a change to the function would leave every stored identifier
    /// unfindable, so each imported sample would be stored again by the next import. The values
    /// were computed independently (the same FNV-1a and finalizer in Python), with the extremes
    /// an identifier may hold: empty, non-ASCII in both normal forms (SQLite compares bytes, so
    /// they are two identifiers, and so are their keys), a NUL byte.
    @Test(arguments: [
        ("", -1_166_397_803_181_037_274),
        ("night-1", -5_880_515_195_054_413_069),
        ("apple-health-import:0123456789abcdef0123456789abcdef", -6_483_581_598_736_258_159),
        ("caf\u{E9}", -789_502_614_188_948_762),
        ("cafe\u{301}", 6_932_218_707_388_432_348),
        ("a\u{0}b", -6_090_848_099_315_675_605),
    ] as [(String, Int64)])
    func theKeyOfAnIdentifierIsFixed(identifier: String, key: Int64) {
        #expect(SyncKey.of(identifier) == key)
    }

    /// Identifiers as an import makes them (one prefix, 32 hex digits of a digest), and as apps
    /// make them (a counter after a word): 200,000 of each, no two with one key. A key that kept
    /// too few bits, or only the shared prefix, fails this.
    @Test func generatedIdentifiersGetDistinctKeys() {
        var keys = Set<Int64>()
        for index in 0..<200_000 {
            var digest = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
            digest ^= digest >> 31
            let hex = String(digest, radix: 16)
            keys.insert(SyncKey.of("apple-health-import:" + String(repeating: "0", count: 16 - hex.count) + hex + "0123456789abcdef"))
            keys.insert(SyncKey.of("night-\(index)"))
        }
        #expect(keys.count == 400_000)
    }

    /// Two identifiers with one key stay two objects: a stored object whose key equals another
    /// identifier's is not that identifier's object. (The collision is made by hand — the row's
    /// key set to the other identifier's — as a real one is too rare to find.) A lookup by key
    /// alone would take the stored "night-1" for "night-2", replace it and record it as deleted.
    @Test func aKeyCollisionLeavesTwoObjects() async throws {
        try await SyncUpsertTests.withStore { database in
            let source = SyncUpsertTests.source("a")
            let first = try await database.samples.insert([SyncUpsertTests.sample(sync: "night-1", version: 1, value: 0)], source: source)
            try await database.writer.write { db in
                try db.execute(sql: "UPDATE objects SET sync_key = ? WHERE sync_identifier = 'night-1'", arguments: [SyncKey.of("night-2")])
            }
            let second = try await database.samples.insert([SyncUpsertTests.sample(sync: "night-2", version: 5, value: 1)], source: source)
            #expect(Set(try SyncUpsertTests.stored(database).map(\.uuid)) == Set(first + second))
            #expect(try SyncUpsertTests.deletedRows(database).isEmpty)
            // Now the key finds two rows; the identifier picks "night-2"'s, as a save of it again shows.
            let again = try await database.samples.insert([SyncUpsertTests.sample(sync: "night-2", version: 5, value: 2)], source: source)
            #expect(again == second)
            #expect(try SyncUpsertTests.deletedRows(database).isEmpty)
        }
    }

    static let importSource = SourceRecord(bundleIdentifier: "@import/Apple Health/Watch", name: "Watch (Apple Health)", version: "10.1")
    static let lastMigrationBeforeKeys = "v32: workout effort relations"

    /// A heart-rate sample named as an import names it.
    static func imported(_ index: Int) -> SampleRecord {
        var record = ObjectDeleterTests.heartRate(minute: index)
        let hex = String(UInt64(index) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
        record.metadata = [HKMetadataKeySyncIdentifier: .string("apple-health-import:" + String(repeating: "0", count: 32 - hex.count) + hex),
                           HKMetadataKeySyncVersion: .number(1)]
        return record
    }

    /// An in-memory store with the functions every store connection has.
    static func memoryStore() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: SampleSQL.uuidBlob)
            db.add(function: SampleSQL.quantityConversion)
        }
        return try DatabaseQueue(configuration: configuration)
    }

    /// Stores `records` under the import source as an older `importBatch` did, straight into
    /// `objects`: with their plain `SyncKey` (`keyed`, v36–v57) or without any (before v36).
    static func storeAsAnOldImport(_ records: [SampleRecord], keyed: Bool, _ db: Database) throws {
        guard let first = records.first else { return }
        try db.execute(sql: "INSERT INTO sources (bundle_identifier, name) VALUES (?, ?)",
                       arguments: [importSource.bundleIdentifier, importSource.name])
        try db.execute(sql: "INSERT INTO sample_types (identifier) VALUES (?)", arguments: [first.typeIdentifier])
        for record in records {
            guard let sync = record.syncIdentity else { throw SyncKeyTestsFailure("an imported sample carries a sync identity") }
            try db.execute(sql: """
                INSERT INTO objects (uuid, type_id, source_id, start_us, end_us, quantity, change_seq, sync_identifier, sync_version\(keyed ? ", sync_key" : ""))
                VALUES (?, (SELECT id FROM sample_types), (SELECT id FROM sources), ?, ?, 100, 1, ?, ?\(keyed ? ", ?" : ""))
                """, arguments: [record.uuid, record.startDate.microsecondsSince1970, record.endDate.microsecondsSince1970,
                                 sync.identifier, sync.version] + (keyed ? [SyncKey.of(sync.identifier)] : []))
        }
    }

    /// A store imported before v36 (identifiers written by v2's schema, with no key), opened by
    /// this version: the migration keys every identifier, so importing the same samples again
    /// adds nothing and a new one is added — issue 16's idempotency across the change. Without
    /// the migration's backfill every sample is stored a second time.
    @Test func samplesImportedBeforeTheKeyExistedAreRecognized() async throws {
        let writer = try Self.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: Self.lastMigrationBeforeKeys)
        let count = 500
        let old = (0..<count).map(Self.imported)
        // What `importBatch` stored before v36, by the columns of that schema: no key.
        try await writer.write { db in try Self.storeAsAnOldImport(old, keyed: false, db) }
        let database = try HealthDatabase(writer: writer)
        let keyed = try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT sync_identifier, sync_key FROM objects").filter { row in
                guard let identifier: String = row["sync_identifier"], let key: Int64 = row["sync_key"] else { return false }
                return key == SyncKey.of(identifier)
            }.count
        }
        #expect(keyed == count)
        let again = try await database.samples.importBatch(old + [Self.imported(count)], source: Self.importSource)
        #expect(again.added == 1)
        #expect(again.unchanged == count)
        let stored = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") }
        #expect(stored == count + 1)
    }

    /// The index the change is for: an import's random identifiers, 60,000 of them in batches,
    /// cost at most 28 bytes of index pages each (v2's index of the identifier texts took 79 here,
    /// seen with this test against that index, so every batch dirtied about four times as many
    /// pages). Measured with SQLite's `dbstat`, the pages the index holds.
    @Test func theIndexOfImportedIdentifiersIsCompact() async throws {
        let writer = try Self.memoryStore()
        let database = try HealthDatabase(writer: writer)
        let count = 60_000
        for batch in stride(from: 0, to: count, by: 5_000) {
            _ = try await database.samples.importBatch((batch..<batch + 5_000).map(Self.imported), source: Self.importSource)
        }
        let (pages, pageSize) = try await writer.read { db in
            (try Int.fetchOne(db, sql: """
                SELECT count(*) FROM dbstat WHERE name IN
                    (SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%sync%')
                """) ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        #expect(pages > 0)
        #expect(pages * pageSize <= count * 28, "the sync index takes \(pages) pages of \(pageSize) bytes for \(count) identifiers")
    }
}

struct SyncKeyTestsFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
