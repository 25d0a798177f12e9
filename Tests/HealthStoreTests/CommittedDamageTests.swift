import Foundation
import GRDB
import Testing

@testable import HealthStore

/// Damage that SQLite alone would take for an unwritten page or a torn write (session 18 storage
/// review, finding 8) is reported as corruption: a flipped bit in the body of a WAL frame that a
/// later transaction follows (the writer's synchronous=FULL means a torn frame can only be in the
/// last transaction), and a database file cut by whole pages. The last transaction's damage still
/// reads as a torn write (`TamperDetectionTests.aDamagedWALTailFoundAfterACrashIsDiscardedNotRead`).
@Suite(.timeLimit(.minutes(10))) struct CommittedDamageTests {
    static let walHeaderSize = TamperDetectionTests.walHeaderSize
    static let walFrameSize = TamperDetectionTests.walFrameSize

    /// The store's files as a crash leaves them (no WAL index), in a new folder.
    static func crashedCopy(of directory: TemporaryDirectory) -> TemporaryDirectory {
        let crashed = TemporaryDirectory()
        for name in ["health.sqlite", "health.sqlite-wal", "store.keys", "machine.key"] {
            StoreFiles.copy(directory.file(name), to: crashed.file(name))
        }
        return crashed
    }

    /// For each transaction in the WAL, its frames (0-based), read from the frame headers'
    /// commit field (the database size, non-zero only on a transaction's last frame).
    static func transactions(in wal: [UInt8]) -> [[Int]] {
        let count = (wal.count - walHeaderSize) / walFrameSize
        var result: [[Int]] = [], current: [Int] = []
        for frame in 0..<count {
            let start = walHeaderSize + frame * walFrameSize
            current.append(frame)
            if wal[start + 4..<start + 8].contains(where: { $0 != 0 }) {
                result.append(current)
                current = []
            }
        }
        return result
    }

    static func labels(_ store: EncryptedDatabase) throws -> [String] {
        try store.writer.read { try String.fetchAll($0, sql: "SELECT label FROM t WHERE label LIKE 'tx %' ORDER BY id") }
    }

    /// Five committed transactions in the WAL; the body of one frame of the `damaged`-th (1-based)
    /// gets one flipped byte. Every transaction but the last is followed by another.
    @Test(arguments: [1, 2, 4])
    func aDamagedFrameThatALaterTransactionFollowsFailsTheOpen(damaged: Int) throws {
        let directory = try TamperDetectionTests.makeStore()
        let store = try EncryptedDatabase.open(directory: directory.path)
        for index in 1...5 {
            try store.writer.write { try $0.execute(sql: "INSERT INTO t (label, value) VALUES (?, ?)", arguments: ["tx \(index)", index]) }
        }
        let crashed = Self.crashedCopy(of: directory)
        withExtendedLifetime(store) {}
        let walPath = crashed.file("health.sqlite-wal")
        // The five inserts are the WAL's last five transactions (opening may commit one of its own first).
        let all = Self.transactions(in: StoreFiles.read(walPath))
        try #require(all.count >= 5, "\(all)")
        let transactions = Array(all.suffix(5))
        let frame = try #require(transactions[damaged - 1].first)
        StoreFiles.flipByte(in: walPath, at: Self.walHeaderSize + frame * Self.walFrameSize + 24 + 700)

        do throws(StoreOpenError) {
            let reopened = try EncryptedDatabase.open(directory: crashed.path)
            Issue.record("opened with transactions \((try? Self.labels(reopened)) ?? [])")
        } catch {
            guard case let .corrupt(path, detail) = error else {
                Issue.record("expected corruption, got \(error)")
                return
            }
            #expect(path == crashed.path)
            #expect(detail.contains("WAL frame \(frame) of \(walPath) failed authentication"), "\(detail)")
        }
    }

    /// A file cut by its last page, which holds the end of a large value, while the WAL (holding
    /// a later, unrelated change) gives the database its full size: SQLite asks for the missing
    /// page, and it is an error, not a value ending in zeros.
    @Test func aDatabaseFileCutByAWholePageIsReportedNotReadAsZeros() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let value = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) })
        try store.writer.write { db in
            try db.execute(sql: "CREATE TABLE small (id INTEGER PRIMARY KEY, n INTEGER)")
            try db.execute(sql: "INSERT INTO small (n) VALUES (1)")
            try db.execute(sql: "CREATE TABLE big (id INTEGER PRIMARY KEY, value BLOB)")
            try db.execute(sql: "INSERT INTO big (value) VALUES (?)", arguments: [value])
        }
        try store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try store.writer.write { try $0.execute(sql: "UPDATE small SET n = 2") }
        let crashed = Self.crashedCopy(of: directory)
        withExtendedLifetime(store) {}
        let database = StoreFiles.read(crashed.file("health.sqlite"))
        try #require(database.count % 4096 == 0 && database.count >= 4 * 4096)
        StoreFiles.write(crashed.file("health.sqlite"), Array(database.dropLast(4096)))

        let outcome: String
        do {
            let reopened = try EncryptedDatabase.open(directory: crashed.path)
            try reopened.checkIntegrity()
            let read = try reopened.writer.read { try Data.fetchOne($0, sql: "SELECT value FROM big") }
            outcome = "read a value of \(read?.count ?? 0) bytes, " + (read == value ? "intact" : "its tail zeros")
        } catch let error as StoreOpenError {
            guard case let .corrupt(_, detail) = error else {
                Issue.record("expected corruption, got \(error)")
                return
            }
            // Named by the VFS ("database page N of …") or by SQLite's integrity check ("failed to get page N").
            #expect(detail.contains("page \(database.count / 4096)"), "\(detail)")
            return
        }
        Issue.record("\(outcome)")
    }
}
