import Foundation
import GRDB
import HealthModel
import Testing
import TestSupport

@testable import HealthStore

/// Damage in a pending journal is never silent and never costs the entries after it (storage
/// review s18 #7), and reading a journal takes bounded memory whatever its size (#12).
///
/// Before the framed format, a damaged length anywhere read as a torn tail: every later entry
/// was dropped, the merge reported nothing and deleted the file, and a locked restart cut them
/// off first (`aDamagedLengthHidesNoLaterEntry`, `aLockedRestartKeepsDamagedBytesAndAppendsAfterThem`
/// failed so).
@Suite(.timeLimit(.minutes(10))) struct PendingJournalDamageTests {
    let directory = TemporaryDirectory()
    let database: HealthDatabase

    init() throws {
        database = try HealthDatabase(writer: DatabaseQueue())
    }

    static func decode(_ plaintext: [UInt8]) throws -> PendingEffect {
        .accessLog(actor: "org.test.app", appID: "org.test.app", action: .write, types: [], count: 1,
                   detail: String(decoding: plaintext, as: UTF8.self), at: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// A journal of `count` entries "entry 1" … (each record the same size), closed.
    private func journal(count: Int) throws -> PendingJournal {
        let journal = try PendingJournalMerge.begin(database, directory: directory.path)
        for index in 1 ... count { try journal.append(Array("entry \(index)".utf8)) }
        journal.close()
        return journal
    }

    private func merge() throws -> PendingJournalMerge.Report {
        try PendingJournalMerge.merge(database, directory: directory.path, decode: Self.decode)
    }

    private func loggedDetails() throws -> [String] {
        try database.accessLog.entries().map(\.detail)
    }

    static let recordBytes = PendingJournalFile.framedRecordHeaderBytes + PendingJournalSeal.overhead + "entry 1".utf8.count

    static func recordStart(_ sequence: Int) -> Int {
        PendingJournalFile.headerBytes + (sequence - 1) * recordBytes
    }

    /// Each place a byte of a record can be damaged, with the offset in the record and whether
    /// the damage breaks its framing (marker, sequence, length, check: read as unreadable
    /// bytes, reading resumes at the next record) or its seal (the entry fails authentication).
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case marker, sequence, lengthHighByte, lengthLowByte, check, ephemeralKey, nonce, tag, ciphertext

        var offset: Int {
            switch self {
            case .marker: 0
            case .sequence: 15
            case .lengthHighByte: 16
            case .lengthLowByte: 19
            case .check: 22
            case .ephemeralKey: 24
            case .nonce: 24 + 32 + 5
            case .tag: 24 + 44 + 3
            case .ciphertext: 24 + 60 + 2
            }
        }

        var breaksFraming: Bool { offset < PendingJournalFile.framedRecordHeaderBytes }
        var testDescription: String { rawValue }
    }

    @Test(arguments: Place.allCases, [1, 3, 6])
    func aDamagedByteCostsItsOwnEntryOnlyAndIsReported(place: Place, damaged: Int) throws {
        let journal = try journal(count: 6)
        StoreFiles.flipByte(in: journal.path, at: Self.recordStart(damaged) + place.offset)

        let report = try merge()
        #expect(report.merged == 5)
        #expect(try loggedDetails() == (1 ... 6).filter { $0 != damaged }.map { "entry \($0)" })
        let problem: PendingJournalProblem = place.breaksFraming
            ? .bytesUnreadable(offset: Self.recordStart(damaged), bytes: Self.recordBytes)
            : .entryDamaged(sequence: UInt64(damaged))
        #expect(report.damaged == [.unmerged(path: journal.path, problems: [problem], more: 0, keptAs: journal.path + ".damaged")])
        #expect(FileManager.default.fileExists(atPath: journal.path + ".damaged"), "the damaged journal was not kept")
    }

    /// The review's case: a length made larger than the rest of the file, early in a journal.
    @Test func aDamagedLengthHidesNoLaterEntry() throws {
        let journal = try journal(count: 8)
        StoreFiles.flipByte(in: journal.path, at: Self.recordStart(3) + Place.lengthHighByte.offset)
        let report = try merge()
        #expect(report.merged == 7)
        #expect(report.damaged.count == 1)
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(FileManager.default.fileExists(atPath: journal.path + ".damaged"))
    }

    /// A locked restart (LockedStart) continues the journal: it cuts a torn tail only, never
    /// bytes it cannot read, and appends after them.
    @Test func aLockedRestartKeepsDamagedBytesAndAppendsAfterThem() throws {
        let journal = try journal(count: 4)
        StoreFiles.flipByte(in: journal.path, at: Self.recordStart(2) + Place.lengthLowByte.offset)
        let next = try #require(try database.writer.read { try LockedStartKeys.current($0) })
        let restarted = try PendingJournal.openForAppending(directory: directory.path, generation: next.generation,
                                                             publicKey: next.publicKey)
        #expect(restarted.count == 4)
        try restarted.append(Array("after the restart".utf8))
        restarted.close()

        let report = try merge()
        #expect(try loggedDetails() == ["entry 1", "entry 3", "entry 4", "after the restart"])
        #expect(report.damaged == [.unmerged(path: journal.path,
                                             problems: [.bytesUnreadable(offset: Self.recordStart(2), bytes: Self.recordBytes)],
                                             more: 0, keptAs: journal.path + ".damaged")])
    }

    /// A record whose intact header names more than an entry may hold is skipped unread (its
    /// body is a hole here: 64 MiB that take no disk), with its own reason; the next merges.
    @Test func anEntryOverTheBoundIsSkippedUnreadWithItsReason() throws {
        let journal = try journal(count: 1)
        let key = try #require(try database.writer.read { try PendingJournalKeys.load($0, generation: journal.generation) })
        let oversized = PendingJournalFile.maxEntryBytes + 1
        try PendingJournalTests.append(PendingJournalFile.recordHeader(format: .framed, generation: journal.generation,
                                                                       sequence: 2, length: oversized), to: journal.path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int)
        #expect(truncate(journal.path, off_t(size + oversized)) == 0)
        let sealed = try PendingJournalSeal.seal(Array("after it".utf8), to: key.publicKey,
                                                 aad: PendingJournalFile.associatedData(generation: journal.generation, sequence: 3))
        try PendingJournalTests.append(PendingJournalFile.recordHeader(format: .framed, generation: journal.generation,
                                                                       sequence: 3, length: sealed.count) + sealed, to: journal.path)

        let report = try merge()
        #expect(try loggedDetails() == ["entry 1", "after it"])
        #expect(report.damaged == [.unmerged(path: journal.path, problems: [.entryTooLarge(sequence: 2, bytes: oversized)],
                                             more: 0, keptAs: journal.path + ".damaged")])
        #expect(report.damaged.first?.description.contains("skipped") == true)
    }

    /// A journal written before the framed format (length-prefixed, `OHKPJ001`) still merges, and
    /// a locked restart continues it in its own framing.
    @Test func aJournalOfTheEarlierFormatIsReadAndContinued() throws {
        let next = try LockedStartKeys.next(database.writer)
        let path = PendingJournalFile.path(directory: directory.path, generation: next.generation)
        var bytes = PendingJournalFile.header(generation: next.generation, format: .lengthPrefixed)
        for (index, text) in ["old one", "old two"].enumerated() {
            let sealed = try PendingJournalSeal.seal(Array(text.utf8), to: next.publicKey,
                                                     aad: PendingJournalFile.associatedData(generation: next.generation,
                                                                                            sequence: UInt64(index + 1)))
            bytes += PendingJournalFile.bigEndian(UInt32(sealed.count)) + sealed
        }
        StoreFiles.write(path, bytes)
        let restarted = try PendingJournal.openForAppending(directory: directory.path, generation: next.generation,
                                                             publicKey: next.publicKey)
        try restarted.append(Array("new three".utf8))
        restarted.close()

        let report = try merge()
        #expect(report.damaged.isEmpty)
        #expect(try loggedDetails() == ["old one", "old two", "new three"])
    }

    // MARK: - Bounded memory (#12)

    /// A framed journal of `records` records of `recordBytes` each (zero bodies, holes on disk).
    static func largeJournal(in directory: TemporaryDirectory, generation: Int64, records: Int, recordBytes: Int) throws -> String {
        let path = PendingJournalFile.path(directory: directory.path, generation: generation)
        StoreFiles.write(path, PendingJournalFile.header(generation: generation))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { handle.closeFile() }
        var offset = UInt64(PendingJournalFile.headerBytes)
        for sequence in 1 ... records {
            handle.seek(toFileOffset: offset)
            handle.write(Data(PendingJournalFile.recordHeader(format: .framed, generation: generation,
                                                              sequence: UInt64(sequence), length: recordBytes)))
            offset += UInt64(PendingJournalFile.framedRecordHeaderBytes + recordBytes)
        }
        handle.truncateFile(atOffset: offset)
        return path
    }

    /// In process: the reader never holds more than one entry, however long the file.
    @Test func theReaderHoldsOneEntryAtATime() throws {
        let path = try Self.largeJournal(in: directory, generation: 7, records: 40, recordBytes: 1 << 20)
        let reader = try #require(try PendingJournalReader(path: path, generation: 7))
        var records = 0
        while case .entry? = try reader.next() { records += 1 }
        #expect(records == 40)
        #expect(reader.largestBuffer == 1 << 20)
        #expect(reader.size > 40 * reader.largestBuffer)
    }

    /// In a child whose data segment is limited to 96 MiB: a locked start's scan and a merge's
    /// read of a 600 MiB journal both succeed (the reader used to load the whole file, so
    /// healthd died at unlock, restarted locked, and died again reading it).
    @Test func aJournalLargerThanTheMemoryLimitIsScannedAndRead() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        _ = try Self.largeJournal(in: directory, generation: 11, records: 25, recordBytes: 24 << 20)
        for mode in ["journal-scan", "journal-read"] {
            let result = try await ProcessRun.run(CrashChild.executablePath, [mode, "\(directory.path):11:96"])
            #expect(result.status == 0 && result.lines == ["records 25"], "\(mode): \(result)")
        }
        // The control: under a limit below one entry, the scan (headers only) still fits and the
        // read of the bodies dies — the limit binds, and it binds on what the reader holds.
        let arguments = "\(directory.path):11:\(Self.controlLimitMiB)"
        let scan = try await ProcessRun.run(CrashChild.executablePath, ["journal-scan", arguments])
        #expect(scan.status == 0 && scan.lines == ["records 25"], "scan under \(Self.controlLimitMiB) MiB: \(scan)")
        let read = try await ProcessRun.run(CrashChild.executablePath, ["journal-read", arguments])
        #expect(read.status != 0, "reading 24 MiB entries under \(Self.controlLimitMiB) MiB succeeded: the limit does not bind")
    }

    static let controlLimitMiB = 20
}
