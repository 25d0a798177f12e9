import Foundation
import GRDB
import Testing

@testable import HealthStore

/// Modified pages of the database or the WAL are reported as corruption naming the
/// page or frame, never read.
@Suite(.timeLimit(.minutes(10))) struct TamperDetectionTests {
    static let pageSize = 4096
    static let walHeaderSize = 32
    static let walFrameSize = 24 + 4096

    /// A closed store of several pages: a table of 2000 rows with an index.
    static func makeStore() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try addRows(store, count: 2000)
        try store.close()
        return directory
    }

    static func addRows(_ store: EncryptedDatabase, count: Int) throws {
        try store.writer.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, label TEXT, value REAL)")
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS t_label ON t (label)")
            for i in 0..<count {
                try db.execute(sql: "INSERT INTO t (label, value) VALUES (?, ?)", arguments: ["row \(i)", Double(i)])
            }
        }
    }

    /// Opens the store and reads every page; returns the error that stopped it.
    static func openAndCheck(_ directory: TemporaryDirectory) -> StoreOpenError? {
        do {
            let store = try EncryptedDatabase.open(directory: directory.path)
            try store.checkIntegrity()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [(3, 100), (5, 2000), (7, 4070), (9, 4090)])
    func aFlippedByteInADatabasePageIsReportedWithItsPage(page: Int, byte: Int) throws {
        let directory = try Self.makeStore()
        StoreFiles.flipByte(in: directory.file("health.sqlite"), at: (page - 1) * Self.pageSize + byte)
        let error = Self.openAndCheck(directory)
        guard case let .corrupt(path, detail) = error else {
            Issue.record("expected corruption, got \(String(describing: error))")
            return
        }
        #expect(path == directory.path)
        #expect(detail.contains("database page \(page) of \(directory.file("health.sqlite")) failed authentication"))
    }

    @Test func aFlippedByteInPageOneRefusesTheOpen() throws {
        let directory = try Self.makeStore()
        StoreFiles.flipByte(in: directory.file("health.sqlite"), at: 40)
        #expect(Self.openAndCheck(directory) == .wrongKey(path: directory.path))
    }

    @Test func aSwappedPairOfPagesIsDetected() throws {
        let directory = try Self.makeStore()
        var bytes = StoreFiles.read(directory.file("health.sqlite"))
        let second = Array(bytes[Self.pageSize..<2 * Self.pageSize])
        bytes.replaceSubrange(Self.pageSize..<2 * Self.pageSize, with: bytes[2 * Self.pageSize..<3 * Self.pageSize])
        bytes.replaceSubrange(2 * Self.pageSize..<3 * Self.pageSize, with: second)
        StoreFiles.write(directory.file("health.sqlite"), bytes)
        guard case let .corrupt(_, detail) = Self.openAndCheck(directory) else {
            Issue.record("a swap of pages 2 and 3 went unnoticed: \(String(describing: Self.openAndCheck(directory)))")
            return
        }
        #expect(detail.contains("database page 2") || detail.contains("database page 3"))
    }

    /// Indexes of WAL frames that hold the newest copy of their page, which is the
    /// copy SQLite reads.
    static func newestFrames(in wal: [UInt8]) -> [Int] {
        let count = (wal.count - walHeaderSize) / walFrameSize
        let pages = (0..<count).map { frame in
            let start = walHeaderSize + frame * walFrameSize
            return wal[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return (0..<count).filter { frame in !pages[(frame + 1)...].contains(pages[frame]) }
    }

    @Test(arguments: [0, 1, 2])
    func aFlippedByteInALiveWALFrameIsReportedWithItsFrame(choice: Int) throws {
        let directory = try Self.makeStore()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try Self.addRows(store, count: 300)
        let walPath = directory.file("health.sqlite-wal")
        let frames = Self.newestFrames(in: StoreFiles.read(walPath))
        try #require(frames.count > 2)
        let frame = frames[choice * (frames.count - 1) / 2]
        StoreFiles.flipByte(in: walPath, at: Self.walHeaderSize + frame * Self.walFrameSize + 24 + 1000)
        let error = #expect(throws: StoreOpenError.self) { try store.checkIntegrity() }
        guard case let .corrupt(_, detail) = error else { return }
        #expect(detail.contains("WAL frame \(frame) of \(walPath) failed authentication"))
    }

    /// After a crash SQLite rebuilds its WAL index by reading frames in order and
    /// stops at the first one that does not check out. A damaged frame there is
    /// indistinguishable from a torn write, so it and the frames after it are
    /// discarded (SQLite's own rule), never read: the store opens intact without
    /// that transaction.
    @Test func aDamagedWALTailFoundAfterACrashIsDiscardedNotRead() throws {
        let directory = try Self.makeStore()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try store.writer.write { try $0.execute(sql: "INSERT INTO t (label, value) VALUES ('last', -1)") }
        // The files as a crash would leave them: database, WAL and keys, no WAL index.
        let crashed = TemporaryDirectory()
        for name in ["health.sqlite", "health.sqlite-wal", "store.keys", "machine.key"] {
            StoreFiles.copy(directory.file(name), to: crashed.file(name))
        }
        let wal = StoreFiles.read(crashed.file("health.sqlite-wal"))
        let lastFrame = (wal.count - Self.walHeaderSize) / Self.walFrameSize - 1
        StoreFiles.flipByte(in: crashed.file("health.sqlite-wal"), at: Self.walHeaderSize + lastFrame * Self.walFrameSize + 500)

        let recovered = try EncryptedDatabase.open(directory: crashed.path)
        try recovered.checkIntegrity()
        let (rows, last) = try recovered.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM t"), try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE label = 'last'"))
        }
        #expect(rows == 2000)
        #expect(last == 0)
        withExtendedLifetime(store) {}
    }
}
