import CChangeCapture
import GRDB

/// SQLite's pre-update hook on the writer connection, noting the sample type of every row
/// inserted or updated in the change tables (CChangeCapture/change_capture.c says why): what a
/// commit changed, without a query after it (`CommitWatcher`).
///
/// Used on the writer connection's own thread only — the hook runs inside that connection's
/// statements, and `take`/`reset` in its commit and rollback callbacks — hence `@unchecked`.
/// The C capture stays the connection's hook context for the connection's life, so it is never
/// freed (a few KiB per store opened).
final class ChangeCapture: @unchecked Sendable {
    private let capture: OpaquePointer
    /// Room for the distinct types one take returns; grown when the note holds more.
    private var taken = [Int64](repeating: 0, count: 256)

    init() throws {
        guard let capture = ohk_change_capture_create() else {
            throw DatabaseError(resultCode: .SQLITE_NOMEM, message: "no memory for the commit watcher's change capture")
        }
        self.capture = capture
    }

    /// Watches `tables` (each with a `type_id` column) on `db`'s connection and installs the hook.
    func install(on db: Database, watching tables: [String]) throws {
        for table in tables {
            guard let column = try Int32.fetchOne(db, sql: "SELECT cid FROM pragma_table_info(?) WHERE name = 'type_id'",
                                                  arguments: [table]),
                  ohk_change_capture_watch(capture, table, column) == 1 else {
                throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "the change capture cannot watch \(table)")
            }
        }
        _ = ohk_change_capture_install(UnsafeMutableRawPointer(db.sqliteConnection), capture)
    }

    /// Also notes the value last written to the row of `table` whose TEXT column `keyColumn` is
    /// `key`, in its integer column `valueColumn` (the store's change number).
    func watchCounter(on db: Database, table: String, keyColumn: String, key: String, valueColumn: String) throws {
        func column(_ name: String) throws -> Int32? {
            try Int32.fetchOne(db, sql: "SELECT cid FROM pragma_table_info(?) WHERE name = ?", arguments: [table, name])
        }
        guard let keyIndex = try column(keyColumn), let valueIndex = try column(valueColumn),
              ohk_change_capture_watch_counter(capture, table, keyIndex, key, valueIndex) == 1 else {
            throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "the change capture cannot watch \(table)'s \(key)")
        }
    }

    /// What one take found: the type ids noted, and the watched counter's value as last written.
    struct Note {
        /// nil when the note is incomplete.
        var types: [Int64]?
        /// nil when the counter was not written, or the note is incomplete.
        var counter: Int64?
    }

    /// What was noted since the last take or reset; starts noting afresh.
    func take() -> Note {
        let noted = Int(ohk_change_capture_count(capture))
        if noted > taken.count { taken = [Int64](repeating: 0, count: noted) }
        var complete: Int32 = 0
        var counter: Int64 = 0
        var written: Int32 = 0
        let count = taken.withUnsafeMutableBufferPointer { buffer in
            ohk_change_capture_take(capture, buffer.baseAddress, Int32(buffer.count), &complete, &counter, &written)
        }
        return Note(types: complete == 1 ? Array(taken[0..<Int(count)]) : nil, counter: written == 1 ? counter : nil)
    }

    func reset() {
        ohk_change_capture_reset(capture)
    }

    /// Where the note of the capture installed on `db`'s connection stands: taken right after a
    /// savepoint begins (`CachedTransaction.inSavepoint`, the writer's one savepoint).
    struct Mark {
        fileprivate let mark: ohk_change_mark
    }

    /// The counter writes the capture installed on `db`'s connection has noted, and the value last
    /// noted; nil when no capture watching the counter is installed there.
    static func counterWrites(_ db: Database) -> (writes: Int64, value: Int64)? {
        var writes: Int64 = 0
        var value: Int64 = 0
        guard ohk_change_capture_counter(UnsafeMutableRawPointer(db.sqliteConnection), &writes, &value) == 1 else {
            return nil
        }
        return (writes, value)
    }

    static func mark(_ db: Database) -> Mark {
        Mark(mark: ohk_change_capture_mark(UnsafeMutableRawPointer(db.sqliteConnection)))
    }

    /// After a rollback to the savepoint begun at `mark`: the types first noted since are
    /// forgotten (SQLite undid their rows without telling the hook), those noted before kept, and
    /// the change number noted is the one written before the mark. So a failed save of a group
    /// commit is not announced, nor its rolled-back change number, and the commit needs no query over the
    /// store to find out what it changed (privreview22, finding 1).
    static func rollBack(_ db: Database, to mark: Mark) {
        ohk_change_capture_roll_back(UnsafeMutableRawPointer(db.sqliteConnection), mark.mark)
    }
}
