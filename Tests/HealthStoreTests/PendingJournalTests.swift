import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The pending journal on its own: entries sealed on disk, merged in order exactly once, a torn
/// tail ignored, a damaged entry detected without losing the others, and a merge that a crash
/// interrupted resuming where it stopped. Damage at each place of a record and the reader's
/// bounds are in PendingJournalDamageTests. Effects are access-log entries whose detail is the
/// entry's plaintext, so the log shows what was merged and in which order.
@Suite(.timeLimit(.minutes(10))) struct PendingJournalTests {
    let directory = TemporaryDirectory()
    let database: HealthDatabase

    init() throws {
        database = try HealthDatabase(writer: DatabaseQueue())
    }

    private static func decode(_ plaintext: [UInt8]) throws -> PendingEffect {
        .accessLog(actor: "org.test.app", appID: "org.test.app", action: .write, types: [], count: 1,
                   detail: String(decoding: plaintext, as: UTF8.self), at: Date(timeIntervalSince1970: 1_700_000_000))
    }

    private func journal(_ entries: [String]) throws -> PendingJournal {
        let journal = try PendingJournalMerge.begin(database, directory: directory.path)
        for entry in entries { try journal.append(Array(entry.utf8)) }
        journal.close()
        return journal
    }

    static func append(_ bytes: [UInt8], to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(bytes))
        handle.closeFile()
    }

    private func merge() throws -> PendingJournalMerge.Report {
        try PendingJournalMerge.merge(database, directory: directory.path, decode: Self.decode)
    }

    private func loggedDetails() throws -> [String] {
        try database.accessLog.entries().map(\.detail)
    }

    /// Key rows of journals a merge takes (the next journal's pair stays: LockedStartKeys).
    private func keyRows() throws -> Int {
        try database.writer.read {
            try Int.fetchOne($0, sql: """
                SELECT count(*) FROM pending_journal_keys
                WHERE generation IS NOT (SELECT next_journal FROM locked_start)
                """) ?? -1
        }
    }

    @Test func entriesAreSealedOnDiskAndMergedInOrderExactlyOnce() throws {
        let journal = try journal(["first entry", "second entry", "third entry"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: journal.path))
        #expect(bytes.range(of: Data("entry".utf8)) == nil, "plaintext in the journal file")

        #expect(try merge().merged == 3)
        #expect(try loggedDetails() == ["first entry", "second entry", "third entry"])
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(try keyRows() == 0)
        #expect(try merge().merged == 0)
        #expect(try loggedDetails().count == 3)
    }

    /// What a kill mid-append leaves: a prefix of a record. Generated: a few bytes of the
    /// marker, a whole header with part of its body.
    @Test(arguments: [5, 24, 24 + 40])
    func aTornLastEntryWasNeverAcknowledgedAndIsIgnored(keptBytes: Int) throws {
        let journal = try journal(["kept one", "kept two"])
        let record = PendingJournalFile.recordHeader(format: .framed, generation: journal.generation, sequence: 3,
                                                     length: 256) + Array(repeating: 7, count: 256)
        try Self.append(Array(record.prefix(keptBytes)), to: journal.path)

        let report = try merge()
        #expect(report.merged == 2)
        #expect(report.damaged.isEmpty)
        #expect(try loggedDetails() == ["kept one", "kept two"])
    }

    @Test func aFlippedBitFailsItsEntryOnlyAndTheFileIsKept() throws {
        let journal = try journal(["one", "two", "three"])
        // Entry 2 starts after the header and entry 1 (record header + sealed "one").
        let secondEntry = PendingJournalFile.headerBytes + PendingJournalFile.framedRecordHeaderBytes + PendingJournalSeal.overhead + 3
        StoreFiles.flipByte(in: journal.path, at: secondEntry + PendingJournalFile.framedRecordHeaderBytes + PendingJournalSeal.overhead)

        let report = try merge()
        #expect(report.merged == 2)
        #expect(report.damaged == [.unmerged(path: journal.path, problems: [.entryDamaged(sequence: 2)], more: 0,
                                             keptAs: journal.path + ".damaged")])
        #expect(try loggedDetails() == ["one", "three"])
        #expect(FileManager.default.fileExists(atPath: journal.path + ".damaged"))
    }

    @Test func aMergeInterruptedAfterSomeEntriesResumesAfterThem() throws {
        let journal = try journal(["applied before the crash", "also applied", "not yet"])
        // What a kill after entry 2's transaction leaves: its effects and its record, together.
        try database.writer.write { db in
            for detail in ["applied before the crash", "also applied"] {
                try AccessLogRepository.append(db, actor: "org.test.app", appID: "org.test.app", action: .write, types: [],
                                               count: 1, detail: detail, at: Date(timeIntervalSince1970: 1_700_000_000))
            }
            try PendingJournalKeys.recordApplied(db, generation: journal.generation, through: 2)
        }
        #expect(try merge().merged == 1)
        #expect(try loggedDetails() == ["applied before the crash", "also applied", "not yet"])
    }

    @Test func anEntryDoesNotOpenInAnotherPlace() throws {
        let journal = try journal(["where it was sealed"])
        let key = try #require(try database.writer.read { try PendingJournalKeys.load($0, generation: journal.generation) })
        let reader = try #require(try PendingJournalReader(path: journal.path, generation: journal.generation))
        guard case let .entry(_, sealed) = try reader.next() else {
            Issue.record("no entry in the journal")
            return
        }
        let right = PendingJournalFile.associatedData(generation: journal.generation, sequence: 1)
        let moved = PendingJournalFile.associatedData(generation: journal.generation, sequence: 2)
        #expect(try PendingJournalSeal.open(sealed[...], privateKey: key.privateKey, publicKey: key.publicKey, aad: right) != nil)
        #expect(try PendingJournalSeal.open(sealed[...], privateKey: key.privateKey, publicKey: key.publicKey, aad: moved) == nil)
        let other = try PendingJournalSeal.keyPair()
        #expect(try PendingJournalSeal.open(sealed[...], privateKey: other.privateKey, publicKey: other.publicKey, aad: right) == nil)
    }
}
