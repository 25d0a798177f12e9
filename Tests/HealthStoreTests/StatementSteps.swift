import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The statements a piece of store work runs, and what they cost in SQLite VM steps: the count
/// the privacy tests compare with a twin store's (a count, not a time).
enum StatementSteps {
    /// Every statement `body` runs on `writer`, its arguments expanded (so each can be explained
    /// or run again on its own).
    static func executed(_ writer: DatabaseQueue, while body: () throws -> Void) throws -> [String] {
        let executed = Mutex<[String]>([])
        writer.inDatabase { db in
            db.trace { event in
                if case let .statement(statement) = event { executed.withLock { $0.append(statement.expandedSQL) } }
            }
        }
        defer { writer.inDatabase { db in db.trace(nil) } }
        try body()
        return executed.withLock { $0 }
    }

    /// The VM steps of `statements`, each run again to completion on a statement of its own to
    /// read the counter.
    static func vmSteps(of statements: [String], in writer: DatabaseQueue) throws -> Int64 {
        try writer.read { db in
            var total: Int64 = 0
            for sql in statements {
                let statement = try db.makeStatement(sql: sql)
                let rows = try Row.fetchCursor(statement)
                while try rows.next() != nil {}
                total += Int64(sqlite3_stmt_status(statement.sqliteStatement, Int32(SQLITE_STMTSTATUS_VM_STEP), 0))
            }
            return total
        }
    }
}
