import Foundation
import GRDB
import GRDBSQLite
import Testing

@testable import HealthStore

/// The save path finds its statements through `StatementSlot`s instead of GRDB's look-up by SQL
/// text, and binds them through `BoundStatement`, which clears them in SQLite directly (issue 17,
/// Benchmarks/README.md "Session 23"). What must not change: a connection only ever runs its own
/// prepared statements, a statement GRDB dropped is never handed out again, and no parameter of
/// one write carries a value over from another.
@Suite(.timeLimit(.minutes(10))) struct StatementSlotTests {
    static let slot = StatementSlot("SELECT ? AS value")

    /// Two connections using one slot in turn each get the statement prepared on their own
    /// connection (GRDB's cached one), never the other's.
    @Test func aSlotHandsEachConnectionItsOwnStatement() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        for _ in 0..<3 {
            for queue in [first, second] {
                try queue.inDatabase { db in
                    let statement = try Self.slot.statement(db)
                    #expect(sqlite3_db_handle(statement.sqliteStatement) == db.sqliteConnection)
                    #expect(try statement === db.cachedStatement(sql: Self.slot.sql))
                }
            }
        }
    }

    /// After GRDB cleared its cache (as it does when the schema changes), the slot hands out the
    /// statement GRDB prepares next, not the one it dropped; the dropped one is finalized as soon
    /// as its last user lets it go (the slot holds it weakly).
    @Test func aSlotNeverHandsOutAStatementGRDBDropped() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            weak var dropped: Statement?
            do {
                let statement = try Self.slot.statement(db)
                dropped = statement
                db.clearSchemaCache()
            }
            #expect(dropped == nil, "the slot kept a statement GRDB had dropped alive")
            let next = try Self.slot.statement(db)
            #expect(try next === db.cachedStatement(sql: Self.slot.sql))
        }
    }

    /// A new `BoundStatement` starts with every parameter NULL, whatever the statement's last user
    /// bound: a write that forgets a value stores NULL, never another write's value.
    @Test func aBoundStatementStartsWithEveryParameterNull() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            func value(_ statement: BoundStatement) throws -> [UInt8]? {
                try statement.readFirstRow { $0.bytes(0) } ?? nil
            }
            let first = try BoundStatement(db, Self.slot)
            try first.bind("another write's value", at: 1)
            #expect(try value(first) == Array("another write's value".utf8))
            #expect(try value(first) == Array("another write's value".utf8), "bindings stay across runs of one write")
            #expect(try value(BoundStatement(db, Self.slot)) == nil)
            // GRDB's own run of the same statement with arguments leaves nothing behind either.
            _ = try String.fetchOne(db.cachedStatement(sql: Self.slot.sql), arguments: ["a GRDB value"])
            #expect(try value(BoundStatement(db, Self.slot)) == nil)
        }
    }

    /// A closed connection's statements are finalized by GRDB as before (the slot does not keep
    /// them), and the slot serves the next connection.
    @Test func aClosedConnectionsStatementIsNotKept() throws {
        weak var kept: Statement?
        do {
            let queue = try DatabaseQueue()
            try queue.inDatabase { db in kept = try Self.slot.statement(db) }
            try queue.close()
        }
        #expect(kept == nil)
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let statement = try Self.slot.statement(db)
            #expect(sqlite3_db_handle(statement.sqliteStatement) == db.sqliteConnection)
        }
    }
}
