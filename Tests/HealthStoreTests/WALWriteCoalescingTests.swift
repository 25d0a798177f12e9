import CPageCipher
import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The cipher VFS writes a transaction's WAL frames to the file in one write (issue 17,
/// `wal_write_buffer.c`): SQLite writes each frame as a 24-byte header and a page, so a
/// one-sample save's commit of 8 frames made 16 `pwrite` calls. Counted by the connection's
/// own WAL file (`ohk_cipher_wal_statistics_of`) on a real encrypted store.
@Suite(.timeLimit(.minutes(10))) struct WALWriteCoalescingTests {
    static let steps = StepSaveFixture.steps
    static let source = StepSaveFixture.source
    static let draft = StepSaveFixture.draft

    static func samples(_ count: Int, from first: Int) -> [SampleRecord] {
        (first..<first + count).map { StepSaveFixture.sample($0, value: Double($0 % 100)) }
    }

    static func statistics(_ store: EncryptedDatabase) throws -> ohk_cipher_wal_statistics {
        try store.writer.writeWithoutTransaction { db in
            var statistics = ohk_cipher_wal_statistics()
            guard ohk_cipher_wal_statistics_of(UnsafeMutableRawPointer(db.sqliteConnection), &statistics) == 1 else {
                throw DatabaseError(message: "the writer has no WAL open through the cipher VFS")
            }
            return statistics
        }
    }

    /// A durable one-sample save with its access-log entry, as healthd commits it: every frame of
    /// its commit reaches the WAL in one write (16 before: a header and a page per frame).
    @Test func aOneSampleSaveReachesTheWALInOneWrite() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        for index in 0..<3 {
            _ = try database.samples.insertBlocking(Self.samples(1, from: index), source: Self.source, accessLog: Self.draft)
        }
        let before = try Self.statistics(store)
        _ = try database.samples.insertBlocking(Self.samples(1, from: 10), source: Self.source, accessLog: Self.draft)
        let after = try Self.statistics(store)
        let pages = after.pages_sealed - before.pages_sealed
        #expect(pages >= 2, "frames sealed for the save: \(pages)")
        #expect(after.file_writes - before.file_writes == 1,
                "WAL writes for a one-sample save of \(pages) frames: \(after.file_writes - before.file_writes)")
    }

    /// A commit of more frames than the buffer holds (31: the unix VFS writes at most 128 KiB − 1
    /// bytes a call) is written in buffer-sized pieces, in order, and reads back whole after the
    /// store is closed and opened again.
    @Test func aLargeCommitIsWrittenInPiecesAndReadsBackWhole() throws {
        let directory = TemporaryDirectory()
        var uuids: [UUID] = []
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            let database = try HealthDatabase(writer: store.writer)
            _ = try database.samples.insertBlocking(Self.samples(1, from: 0), source: Self.source, accessLog: Self.draft)
            let before = try Self.statistics(store)
            uuids = try database.samples.insertBlocking(Self.samples(20_000, from: 1), source: Self.source, accessLog: Self.draft)
            let after = try Self.statistics(store)
            let pages = after.pages_sealed - before.pages_sealed
            let writes = after.file_writes - before.file_writes
            #expect(pages > 128, "frames sealed for 20,000 samples: \(pages)")
            #expect(writes <= pages / 31 + 2, "WAL writes for \(pages) frames: \(writes)")
            try store.close()
        }
        let reopened = try EncryptedDatabase.open(directory: directory.path)
        let (count, check) = try reopened.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? 0,
             try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "")
        }
        #expect(count == 20_001)
        #expect(check == "ok")
        #expect(uuids.count == 20_000)
    }
}
