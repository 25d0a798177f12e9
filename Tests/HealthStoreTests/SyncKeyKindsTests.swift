import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// One sync-key search per imported sample at most (issue 16; `SyncKeyKinds`, v58): an import's
/// source is searched only under the kinds of key it holds. Before, every new sample of an import
/// was searched twice — under its own kind of key and then the other — so a first import of
/// 134,000 samples ran 268,000 index searches that could find nothing. The answers stay those of
/// `DatedSyncIdentityTests` (every pairing of marks finds every sample); this suite counts the
/// searches, on real encrypted stores, and checks that a store imported before v58 keeps both.
@Suite(.timeLimit(.minutes(10))) struct SyncKeyKindsTests {
    static let importSource = SyncKeyTests.importSource
    static let count = 200

    /// Counts the sync-key searches (`SyncLookup`'s statement) the writer connection starts.
    final class SearchCounter: Sendable {
        private let counted = Mutex(0)
        var searches: Int { counted.withLock { $0 } }

        func install(on writer: any DatabaseWriter) throws {
            try writer.writeWithoutTransaction { db in
                db.trace(options: .statement) { [self] event in
                    if case let .statement(statement) = event, statement.sql.contains("AND sync_key = ? AND sync_identifier = ?") {
                        counted.withLock { $0 += 1 }
                    }
                }
            }
        }

        func reset() { counted.withLock { $0 = 0 } }
    }

    /// A first import searches nothing (its source holds no key yet); importing the same samples
    /// again, with either mark, searches once per sample and finds each. Before v58 the first
    /// import searched twice per sample (400 here) and a re-import under the other kind of key
    /// twice as well.
    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func aFirstImportSearchesNothingAndAReimportOncePerSample(firstDated: Bool, againDated: Bool) async throws {
        try await SyncUpsertTests.withStore { database in
            let counter = SearchCounter()
            try counter.install(on: database.writer)
            let records = DatedSyncIdentityTests.imported(Self.count)
            let first = try await database.samples.importBatch(records, dated: firstDated ? DatedSyncIdentityTests.dated(Self.count) : [],
                                                               source: Self.importSource)
            #expect(first.added == Self.count)
            #expect(counter.searches == 0)
            counter.reset()
            let again = try await database.samples.importBatch(records, dated: againDated ? DatedSyncIdentityTests.dated(Self.count) : [],
                                                               source: Self.importSource)
            #expect(again.unchanged == Self.count)
            #expect(counter.searches == Self.count)
        }
    }

    /// An app's upsert is not an import's: it searches its plain key once per sample, as before.
    @Test func anAppsUpsertSearchesOncePerSample() async throws {
        try await SyncUpsertTests.withStore { database in
            let counter = SearchCounter()
            try counter.install(on: database.writer)
            let samples = (0..<Self.count).map { SyncUpsertTests.sample(sync: "night-\($0)", version: 1, minute: $0) }
            _ = try await database.samples.insert(samples, source: SyncUpsertTests.source("app"))
            #expect(counter.searches == Self.count)
        }
    }

    /// A store imported before v58, by a healthctl that sent no marks (plain keys), opened by this
    /// version: v58 notes both kinds for its import source, so a dated re-import still finds every
    /// sample. Without the migration's notes the source would look empty of keys, the re-import
    /// would search nothing and store every sample a second time.
    @Test func aSourceImportedBeforeTheKindsWereKeptIsSearchedUnderBoth() async throws {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: "v48: per-document read offers")
        let old = DatedSyncIdentityTests.imported(Self.count)
        // What `importBatch` stored before v58 for an undated identity, by that schema's columns.
        try await writer.write { db in try SyncKeyTests.storeAsAnOldImport(old, keyed: true, db) }
        let database = try HealthDatabase(writer: writer)
        let again = try await database.samples.importBatch(old + [SyncKeyTests.imported(Self.count)],
                                                           dated: DatedSyncIdentityTests.dated(Self.count + 1), source: Self.importSource)
        #expect(again.added == 1)
        #expect(again.unchanged == Self.count)
        let stored = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") }
        #expect(stored == Self.count + 1)
    }
}
