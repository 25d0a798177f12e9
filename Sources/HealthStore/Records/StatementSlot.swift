import Foundation
import GRDB

/// One statement of the writer's hot path, found again without GRDB's statement cache look-up.
///
/// Why: `Database.cachedStatement(sql:)` finds a statement by hashing its whole SQL text in a
/// `String`-keyed dictionary — about 1k instructions a look-up, and a durable one-sample save
/// made 12 of them (its transaction, the change number, the type, source and system look-ups,
/// the insert, the access-log entry's three statements, the watcher's read): 12k of healthd's
/// 423k instructions for the save (issue 17, Benchmarks/README.md "Session 23"). A slot is a
/// static object per statement, so finding it again is a comparison of identities.
///
/// GRDB stays the owner of the statement's life: the slot holds it weakly, with the connection
/// it was prepared on (weakly too). It hands the statement out only to that same connection and
/// only while GRDB's cache (or a caller still running it) keeps it alive; otherwise it asks the
/// cache again and remembers that answer. So a statement GRDB dropped (after its failure, or a
/// schema change) is never handed out, and a connection is closed as before, its statements
/// finalized by GRDB. One connection at a time: a slot used from two connections in turn just
/// goes back to the cache on every switch — correct, only no faster — so slots are for the
/// writer's statements. The lock is uncontended there (one writer connection, one thread at a
/// time).
final class StatementSlot: @unchecked Sendable {
    let sql: String
    /// Guards the two weak references (a slot is a static shared by every connection).
    private let lock = NSLock()
    private weak var heldDatabase: Database?
    private weak var heldStatement: Statement?

    init(_ sql: String) {
        self.sql = sql
    }

    /// The connection's prepared statement for `sql`: GRDB's cached one.
    func statement(_ db: Database) throws -> Statement {
        lock.lock()
        let held = heldDatabase === db ? heldStatement : nil
        lock.unlock()
        if let held { return held }
        let statement = try db.cachedStatement(sql: sql)
        lock.lock()
        heldDatabase = db
        heldStatement = statement
        lock.unlock()
        return statement
    }
}
