import CPageCipher
import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// A save whose WAL write fails stays failed (cipherreview21, finding 1). The cipher VFS gathers
/// a transaction's frames and writes them at its commit (`wal_write_buffer.c`); when that write
/// failed, the frames used to stay buffered and reach the log at the next read, commit frame
/// included, so a crash soon after replayed a save its caller was told had failed. The disk is
/// made full for the writer's WAL alone by the VFS's test hook (`ohk_cipher_fail_next_writes_of`:
/// SQLITE_FULL, as the unix VFS reports ENOSPC), on a real encrypted store; the crash is a copy of
/// its files taken while it is open, as a kill leaves them.
@Suite(.timeLimit(.minutes(10))) struct WALWriteFailureTests {
    static let steps = StepSaveFixture.steps
    static let source = StepSaveFixture.source
    static let draft = StepSaveFixture.draft

    static func sample(_ index: Int) -> [SampleRecord] { [StepSaveFixture.sample(index)] }

    /// Makes the next `count` writes of the writer connection's file of `kind` fail as a full disk.
    static func failNextWrites(_ store: EncryptedDatabase, kind: Int32, count: Int32) throws {
        try store.writer.writeWithoutTransaction { db in
            guard ohk_cipher_fail_next_writes_of(UnsafeMutableRawPointer(db.sqliteConnection), kind, count) == 1 else {
                throw DatabaseError(message: "the writer has no such file open through the cipher VFS")
            }
        }
    }

    /// Objects counted on the writer connection itself: its reads are what wrote the buffered
    /// frames out.
    static func countOnWriter(_ store: EncryptedDatabase) throws -> Int {
        try store.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? -1 }
    }

    /// The store's files as a kill would leave them: copied while it is open, without its WAL
    /// index (rebuilt from the WAL on open, as after a crash).
    static func crashImage(of directory: TemporaryDirectory) throws -> TemporaryDirectory {
        let image = TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where name != "store.lock" && name != "health.sqlite-shm" {
            try FileManager.default.copyItem(atPath: directory.file(name), toPath: image.file(name))
        }
        return image
    }

    static func storedUUIDs(_ directory: TemporaryDirectory) throws -> Set<UUID> {
        let store = try EncryptedDatabase.open(directory: directory.path)
        defer { try? store.close() }
        try store.checkIntegrity()
        var found: Set<UUID> = []
        try HealthDatabase(writer: store.writer).samples.query(SampleQuerySpec(typeIdentifier: steps), scope: .allSources) {
            found.formUnion($0.map(\.uuid))
        }
        return found
    }

    /// The commit's WAL write fails once; the save fails with SQLITE_FULL; the writer then reads
    /// (the disk has room again); a crash image opened afterwards holds the acknowledged save and
    /// not the failed one.
    @Test func aSaveWhoseCommitFailedIsAbsentAfterACrash() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        let acknowledged = try database.samples.insertBlocking(Self.sample(0), source: Self.source, accessLog: Self.draft)
        try Self.failNextWrites(store, kind: OHK_CIPHER_FILE_WAL, count: 1)
        var failure: (any Error)?
        do {
            let saved = try database.samples.insertBlocking(Self.sample(1), source: Self.source, accessLog: Self.draft)
            Issue.record("the save whose commit could not be written was acknowledged: \(saved)")
        } catch {
            failure = error
        }
        #expect((failure as? DatabaseError)?.resultCode == .SQLITE_FULL, "\(String(describing: failure))")
        #expect(try Self.countOnWriter(store) == 1)
        let image = try Self.crashImage(of: directory)
        #expect(try Self.storedUUIDs(image) == Set(acknowledged))
        try store.close()
    }

    /// While the disk stays full the writer connection still answers reads (nothing it must write
    /// first), a save keeps failing with SQLITE_FULL — what healthd reads as "no space left" —
    /// and once there is room again saving works and the failed saves stay absent.
    @Test func theWriterReadsWhileItsDiskIsFullAndSavesOnceThereIsRoom() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        var acknowledged = Set(try database.samples.insertBlocking(Self.sample(0), source: Self.source, accessLog: Self.draft))
        try Self.failNextWrites(store, kind: OHK_CIPHER_FILE_WAL, count: 1_000_000)
        for index in 1...2 {
            do {
                _ = try database.samples.insertBlocking(Self.sample(index), source: Self.source, accessLog: Self.draft)
                Issue.record("save \(index) was acknowledged on a full disk")
            } catch {
                #expect((error as? DatabaseError)?.resultCode == .SQLITE_FULL, "\(error)")
            }
            var counted: Int?
            do {
                counted = try Self.countOnWriter(store)
            } catch {
                Issue.record("the writer could not read while its disk was full: \(error)")
            }
            #expect(counted == 1)
        }
        try Self.failNextWrites(store, kind: OHK_CIPHER_FILE_WAL, count: 0)
        acknowledged.formUnion(try database.samples.insertBlocking(Self.sample(3), source: Self.source, accessLog: Self.draft))
        #expect(try Self.countOnWriter(store) == 2)
        let image = try Self.crashImage(of: directory)
        #expect(try Self.storedUUIDs(image) == acknowledged)
        try store.close()
    }
}
