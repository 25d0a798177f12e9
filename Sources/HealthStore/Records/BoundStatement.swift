import Foundation
import GRDB
import GRDBSQLite

/// A cached statement whose parameters are bound through SQLite's C API, one value at a time,
/// and which is then stepped in SQLite directly (`stepDirectly`, `readFirstRow`).
///
/// Why: binding a row through GRDB's `StatementArguments` builds an array of boxed
/// `DatabaseValue`s per row and validates it against the statement — 15 % of healthd's time in a
/// batched save (issue 17). Binding each column directly costs one C call per value.
///
/// What running it through GRDB adds: GRDB tells its transaction observers of the rows of
/// statements it steps, and drops a statement that failed from its cache so the next use gets a
/// fresh one. The direct runs make up for the second (a statement is reset after any error, which
/// leaves a v2 statement usable); the first matters only for a table a GRDB observer watches, and
/// the store's observers watch none that is written here: the commit watcher learns what changed
/// from SQLite's pre-update hook (`ChangeCapture`), and `LockedStartWriter` watches `locked_start`.
///
/// The statement is taken from the connection's cache (prepared once per connection; on the save
/// path through a `StatementSlot`), reset and its bindings cleared, in SQLite directly. It is only
/// ever stepped directly (`stepDirectly`, `readFirstRow`), never through GRDB: GRDB's record of
/// its arguments is neither read nor kept. (Until issue 17's session 23 it was cleared with GRDB's
/// `setUncheckedArguments`, which also checks the calling queue and records empty arguments —
/// about 1.3k instructions a statement, 10 statements a durable save; Benchmarks/README.md
/// "Session 23".) One `BoundStatement` per statement and write: nothing else may bind the same
/// statement in between. Every parameter must be bound before each run: values stay bound from
/// the previous row otherwise (which an owner may rely on for values that are the same for every
/// row, as `SampleInserter` does); a new `BoundStatement` starts with every parameter NULL.
struct BoundStatement {
    let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    init(_ db: Database, sql: String) throws {
        try self.init(db.cachedStatement(sql: sql))
    }

    /// The statement of `slot` on `db`'s connection (the save path's statements).
    init(_ db: Database, _ slot: StatementSlot) throws {
        try self.init(slot.statement(db))
    }

    private init(_ statement: Statement) {
        self.statement = statement
        // Every run of ours rewinds, but a statement GRDB ran last may still be stepped: reset
        // (its result only repeats the last step's error, already reported), then forget the
        // previous user's values so no parameter of this write carries one over.
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    /// SQLite copies text and blobs bound with this destructor, so Swift's buffers may go away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    // Binding fails only for an index out of range or a value over SQLite's size limits
    // (1 GB); the indexes are fixed by the code that owns the SQL, so a failure is a bug there —
    // reported as an error all the same, never a crash.
    private func check(_ code: Int32, _ index: Int32) throws {
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code),
                                message: "binding parameter \(index) failed", sql: statement.sql)
        }
    }

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value), index)
    }

    func bind(_ value: Int64?, at index: Int32) throws {
        guard let value else { return try bindNull(at: index) }
        try bind(value, at: index)
    }

    func bind(_ value: Double?, at index: Int32) throws {
        guard let value else { return try bindNull(at: index) }
        try check(sqlite3_bind_double(handle, index, value), index)
    }

    func bind(_ value: String?, at index: Int32) throws {
        guard var value else { return try bindNull(at: index) }
        let code = value.withUTF8 { text -> Int32 in
            guard let base = text.baseAddress, !text.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            return base.withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_bind_text(handle, index, $0, Int32(text.count), Self.transient)
            }
        }
        try check(code, index)
    }

    /// Text given as its UTF-8 bytes (valid UTF-8: the caller's encoder made it), bound as TEXT
    /// exactly as the same `String` would be; nil binds NULL.
    func bind(utf8 bytes: [UInt8]?, at index: Int32) throws {
        guard let bytes else { return try bindNull(at: index) }
        let code = bytes.withUnsafeBufferPointer { text -> Int32 in
            guard let base = text.baseAddress, !text.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            return base.withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_bind_text(handle, index, $0, Int32(text.count), Self.transient)
            }
        }
        try check(code, index)
    }

    /// Bytes bound as a BLOB, as GRDB binds `Data` (an empty array is an empty BLOB, not NULL).
    func bind(blob bytes: [UInt8], at index: Int32) throws {
        let code = bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress, !raw.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base, Int32(raw.count), Self.transient)
        }
        try check(code, index)
    }

    /// A UUID as its 16 bytes (how `objects.uuid` stores it, as GRDB would).
    func bind(_ uuid: UUID, at index: Int32) throws {
        let code = withUnsafeBytes(of: uuid.uuid) { bytes in
            sqlite3_bind_blob(handle, index, bytes.baseAddress, 16, Self.transient)
        }
        try check(code, index)
    }

    func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index), index)
    }

    /// Runs a statement that changes the store by stepping it in SQLite directly, without GRDB.
    ///
    /// Why: GRDB's run costs more than the row's insert into six B-trees in a batched save —
    /// per statement it checks the transaction and the scheduling queue, sets up its transaction
    /// observers and installs SQLite's update hook, and inside a savepoint (every save is one,
    /// `GroupCommitQueue`) it copies each row's change event into a buffer to replay at the
    /// release (issue 17).
    ///
    /// What it skips is therefore the caller's to make up: GRDB's observers hear nothing of a
    /// row stepped here, so it is not for a table one of them watches (see the type's comment).
    /// A failure is thrown as GRDB would throw it; the statement is reset, so it stays usable
    /// (SQLite's v2 statements can be reset after any error), and whether the error ended the
    /// whole transaction is read from SQLite itself (`isInsideTransaction`) by the group commit.
    func stepDirectly(_ db: Database) throws {
        defer { rewind() }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// The row id of the connection's last insert, read from SQLite without GRDB's check of the
    /// calling queue (a `DispatchQueue.getSpecific` per call, per row of a batched save). Valid
    /// right after this statement inserted, on the connection's queue, where it was run.
    var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(sqlite3_db_handle(handle))
    }

    /// The first row of a read-only statement with the values bound, read column by column by
    /// `read` straight from SQLite, without GRDB's cursor and `Row` (which cost more than the
    /// index search itself in the import's per-sample sync lookup). Only for a SELECT: a statement
    /// that changes nothing has nothing for GRDB's transaction observers to hear, so stepping it
    /// directly skips nothing; one that would change the store is refused here.
    func readFirstRow<Value>(_ read: (RawRow) throws -> Value) throws -> Value? {
        guard sqlite3_stmt_readonly(handle) != 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "readFirstRow runs read-only statements only", sql: statement.sql)
        }
        defer { rewind() }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return try read(RawRow(handle: handle))
        case SQLITE_DONE: return nil
        case let code: throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "reading a row failed", sql: statement.sql)
        }
    }

    /// The columns of the row a statement is on (valid only inside `readFirstRow`'s closure).
    struct RawRow {
        fileprivate let handle: OpaquePointer

        func int64(_ column: Int32) -> Int64 {
            sqlite3_column_int64(handle, column)
        }

        /// The column's bytes as GRDB reads a BLOB into `Data` (TEXT as its UTF-8 bytes); nil for NULL.
        func bytes(_ column: Int32) -> [UInt8]? {
            guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
            // sqlite3_column_bytes after sqlite3_column_blob, as SQLite asks: the blob call may convert.
            let base = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let base, count > 0 else { return [] }
            return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
        }

        /// A UUID stored as its 16 bytes; anything else is a damaged row.
        func uuid(_ column: Int32) throws(StoreIntegrityError) -> UUID {
            guard sqlite3_column_type(handle, column) == SQLITE_BLOB, sqlite3_column_bytes(handle, column) == 16,
                  let bytes = sqlite3_column_blob(handle, column) else { throw .malformedUUID }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: 16)) }
            return UUID(uuid: uuid)
        }
    }

    /// SQLite refuses new values for a statement stepped since its last reset, and GRDB resets
    /// before a run, not after. The bindings survive a reset. Its result only repeats the last
    /// step's error, which GRDB has already thrown.
    private func rewind() {
        sqlite3_reset(handle)
    }
}
