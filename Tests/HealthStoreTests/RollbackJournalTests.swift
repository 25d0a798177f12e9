import Foundation
import GRDB
import Testing

@testable import HealthStore

/// The store runs in WAL mode, but the cipher also covers a connection switched to
/// a rollback journal: page records in the journal are sealed, and a rollback that
/// reads them back restores the data.
@Suite(.timeLimit(.minutes(10))) struct RollbackJournalTests {
    @Test func aSpilledTransactionRollsBackFromAnEncryptedJournal() throws {
        let directory = TemporaryDirectory()
        let marker = "HKQuantityTypeIdentifierStepCount"
        try EncryptedDatabase.open(directory: directory.path).close()
        let layout = try StoreLayout(directory: directory.path, create: false)
        let key = try DataKeyResolver(layout: layout).resolve(passcode: nil, createIfNew: false)
        let queue = try CipherDatabaseOpener.openQueue(layout, key: key)

        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)")
            try db.inTransaction {
                for i in 0..<3000 { try db.execute(sql: "INSERT INTO t (label) VALUES (?)", arguments: ["\(marker) \(i)"]) }
                return .commit
            }
            // A tiny cache forces the transaction to spill pages into the database
            // file, so the rollback must play the journal back.
            try db.execute(sql: "PRAGMA cache_size = 5")
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "UPDATE t SET label = 'overwritten'")
            let journal = StoreFiles.read(directory.file("health.sqlite-journal"))
            #expect(journal.count > 3 * 4096, "the journal holds no page records")
            #expect(!StoreFiles.contains(journal, Array(marker.utf8)))
            try db.execute(sql: "ROLLBACK")
        }
        let (kept, integrity) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE label LIKE 'HKQuantity%'"),
                try String.fetchOne(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(kept == 3000)
        #expect(integrity == "ok")
    }
}
