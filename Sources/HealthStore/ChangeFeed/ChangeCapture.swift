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
    /// Room for every distinct type one take may return (the C capture holds at most 256).
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

    /// The type ids noted since the last take or reset, nil when the note is incomplete; starts
    /// noting afresh.
    func take() -> [Int64]? {
        var complete: Int32 = 0
        let count = taken.withUnsafeMutableBufferPointer { buffer in
            ohk_change_capture_take(capture, buffer.baseAddress, Int32(buffer.count), &complete)
        }
        return complete == 1 ? Array(taken[0..<Int(count)]) : nil
    }

    func reset() {
        ohk_change_capture_reset(capture)
    }

    /// After a rollback to a savepoint on `db`'s connection: the capture installed there, if any,
    /// reports its next take incomplete, so the commit watcher asks the store which types the
    /// committed rows carry instead of announcing types of rows that were undone. Every rollback
    /// to a savepoint on a store connection calls this (`CachedTransaction.inSavepoint`, the
    /// pending journal's merge).
    static func savepointRolledBack(_ db: Database) {
        ohk_change_capture_savepoint_rolled_back(UnsafeMutableRawPointer(db.sqliteConnection))
    }
}
