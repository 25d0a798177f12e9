import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// An app's `deleteObjects(of:predicate:)` over millions of its own samples must not hold the
/// store's only writer for everyone (s17 red-team finding 5): `deleteMatching` commits in chunks
/// of `SampleRepository.deletionChunk`, each submitted after the previous one committed, so other
/// apps' saves commit between them. On a real encrypted store (a pool: readers see each chunk).
@Suite(.timeLimit(.minutes(10))) struct ChunkedDeletionTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let deleter = SourceRecord(bundleIdentifier: "org.example.deleter", name: "Deleter", version: "1")
    static let other = SourceRecord(bundleIdentifier: "org.example.other", name: "Other", version: "1")

    /// Set once, by the deletion's task when it returns.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    static func samples(_ count: Int, from index: Int = 0) -> [SampleRecord] {
        (index..<index + count).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(30),
                                value: .quantity(Double(index), unit: "count"))
        }
    }

    static func draft() -> AccessLogEntryDraft {
        AccessLogEntryDraft(actor: deleter.bundleIdentifier, appID: deleter.bundleIdentifier, action: .delete, types: [steps])
    }

    static func count(_ database: HealthDatabase, _ source: SourceRecord) throws -> Int {
        try database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM objects o JOIN sources s ON s.id = o.source_id WHERE s.bundle_identifier = ?",
                             arguments: [source.bundleIdentifier]) ?? -1
        }
    }

    static func store(holding count: Int) async throws -> (TemporaryDirectory, HealthDatabase) {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        for first in stride(from: 0, to: count, by: 2_000) {
            _ = try await database.samples.insert(samples(min(2_000, count - first), from: first), source: deleter)
        }
        return (directory, database)
    }

    @Test func anotherAppsSaveCommitsBetweenTheChunksOfALargeDeletion() async throws {
        let total = SampleRepository.deletionChunk * 10
        let (directory, database) = try await Self.store(holding: total)
        _ = directory
        let finished = Flag()
        let deletion = Task {
            defer { finished.set() }
            return try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: nil, appID: Self.deleter.bundleIdentifier,
                                                             workouts: .allSources, accessLog: Self.draft())
        }
        // Wait for the first chunk to commit (or, with one transaction for everything, the end).
        while try Self.count(database, Self.deleter) == total, !finished.isSet {
            try await Task.sleep(for: .milliseconds(1))
        }
        _ = try await database.samples.insert(Self.samples(1), source: Self.other)
        // The save queued behind at most the chunk running when it arrived; nine chunks remained.
        #expect(!finished.isSet, "the save waited for the whole deletion")
        #expect(try await deletion.value == total)
        #expect(try Self.count(database, Self.deleter) == 0)
        #expect(try Self.count(database, Self.other) == 1)
    }

    @Test func eachChunkIsRecordedAndTheCountsAddUp() async throws {
        let total = SampleRepository.deletionChunk * 2 + 500
        let (directory, database) = try await Self.store(holding: total)
        _ = directory
        let deleted = try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: nil, appID: Self.deleter.bundleIdentifier,
                                                                workouts: .allSources, accessLog: Self.draft())
        #expect(deleted == total)
        let deletedRows = try await database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM deleted_objects") ?? -1 }
        #expect(deletedRows == total)
        let entries = try database.accessLog.entries()
        #expect(entries.map(\.count).sorted() == [500, SampleRepository.deletionChunk, SampleRepository.deletionChunk])
        #expect(try database.accessLog.verify() == .intact(entries: 3))

        // Nothing left to match: one entry, count 0, as before chunking.
        let none = try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: nil, appID: Self.deleter.bundleIdentifier,
                                                             workouts: .allSources, accessLog: Self.draft())
        #expect(none == 0)
        #expect(try database.accessLog.entries().count == 4)
    }

    @Test func aPredicateThatSkipsRowsStillReachesEveryMatchOnce() async throws {
        // The later half matches: the chunks step past the unmatched first half, then take the rest
        // in two chunks (the second full, so a third finds nothing).
        let total = SampleRepository.deletionChunk * 3
        let (directory, database) = try await Self.store(holding: total)
        _ = directory
        let predicate = SamplePredicate.quantity(.greaterThanOrEqualTo, value: Double(total / 2), unit: "count")
        let deleted = try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: predicate,
                                                                appID: Self.deleter.bundleIdentifier, workouts: .allSources)
        #expect(deleted == total / 2)
        #expect(try Self.count(database, Self.deleter) == total / 2)
    }

    @Test func objectsSavedAfterTheFirstChunkAreNotSweptUp() async throws {
        let total = SampleRepository.deletionChunk + 10
        let (directory, database) = try await Self.store(holding: total)
        _ = directory
        // The first chunk, as `deleteMatching` runs it (selected on a reader, deleted in the
        // writer); then the app saves; then the next chunk.
        let app = Self.deleter.bundleIdentifier
        func runChunk(_ chunk: DeletionChunk) async throws -> (Int, DeletionChunk?) {
            let selected = try await database.writer.read { db in
                try SampleRepository.selectMatchingChunk(typeIdentifier: Self.steps, predicate: nil, appID: app,
                                                         workouts: .allSources, chunk: try chunk.resolved(db), db)
            }
            let deleted = try await database.writer.write { db in
                try SampleRepository.deleteRows(
                    SampleRepository.stillOwned(selected.rowIDs, typeIdentifier: Self.steps, appID: app, through: selected.through, db), db)
            }
            return (deleted, selected.next)
        }
        let first = try await runChunk(.first)
        #expect(first.0 == SampleRepository.deletionChunk)
        let next = try #require(first.1)
        _ = try await database.samples.insert(Self.samples(5, from: total), source: Self.deleter)
        let second = try await runChunk(next)
        #expect(second.0 == 10)
        #expect(second.1 == nil)
        #expect(try Self.count(database, Self.deleter) == 5)
    }
}
