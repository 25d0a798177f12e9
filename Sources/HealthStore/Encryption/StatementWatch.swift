import Glibc
import GRDB
import GRDBSQLite

/// The progress handler of one store connection: every `interval` VM steps it charges the CPU
/// time used since its last look to each busy statement run of the connection, and asks the
/// call's `StatementBudget` (the task-local of the thread stepping it) whether to go on.
/// Statements run for no app call (healthctl, the broker's own work) have no budget and are
/// never stopped here.
///
/// A statement run is a prepared statement and its run count (`SQLITE_STMTSTATUS_RUN`): a cached
/// statement run again starts with nothing used; an outer cursor keeps what it used while inner
/// statements run per row.
final class StatementWatch: @unchecked Sendable {
    // @unchecked: the mutable state is touched only by the progress handler, which runs on the
    // thread stepping the connection; SQLite uses a connection from one thread at a time.

    /// VM steps between two looks: a few tens of microseconds of ordinary work, so the look
    /// (a clock read and a walk of the connection's prepared statements) costs ~1–2 %.
    static let interval: Int32 = 20_000

    private let connection: OpaquePointer
    private let onReader: Bool
    private var used: [Run: Int64] = [:]
    private var lastCPU: Int64 = 0
    private var lastThread: pthread_t?
    private var lastHanded: UInt64 = 0
    private var lastBudget: ObjectIdentifier?

    private struct Run: Hashable {
        let statement: OpaquePointer
        let run: Int32
    }

    private init(connection: OpaquePointer, onReader: Bool) {
        self.connection = connection
        self.onReader = onReader
    }

    /// Installs a watch on `db` (CipherDatabaseOpener's `prepareDatabase`). It lives as long as
    /// the connection: a function registered with it releases it when SQLite closes the connection.
    static func install(on db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        let watch = StatementWatch(connection: connection, onReader: db.configuration.readonly)
        let context = Unmanaged.passRetained(watch).toOpaque()
        // The keeper function (it returns NULL; nothing calls it) is how the watch learns the
        // connection closed: SQLite calls its destructor once, at close or on a failed
        // registration. It needs a body: with no callbacks at all the call would delete the
        // function, and SQLite would release the watch at once.
        let rc = sqlite3_create_function_v2(
            connection, "openhealth_statement_watch", 0, SQLITE_UTF8, context,
            { sqliteContext, _, _ in sqlite3_result_null(sqliteContext) }, nil, nil,
            { context in if let context { Unmanaged<StatementWatch>.fromOpaque(context).release() } })
        guard rc == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "could not install the statement watch")
        }
        sqlite3_progress_handler(connection, interval, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementWatch>.fromOpaque(context).takeUnretainedValue().look() ? 1 : 0
        }, context)
    }

    /// True when the running statement must stop (SQLite then fails it with SQLITE_INTERRUPT).
    private func look() -> Bool {
        guard let budget = StatementBudget.current else {
            if !used.isEmpty { used.removeAll() }
            lastThread = nil
            return false
        }
        let now = Self.threadCPUNanoseconds()
        let thread = pthread_self()
        let owner = ObjectIdentifier(budget)
        // CPU time of this thread only: on another thread (the connection moved) or after the
        // budget changed hands, nothing is charged for the interval.
        let sameHands = lastThread.map { pthread_equal($0, thread) != 0 } == true && lastBudget == owner
        let charged = sameHands ? max(0, now - lastCPU) : 0
        lastThread = thread
        lastBudget = owner
        lastCPU = now
        let handed = budget.messagesHanded
        if handed != lastHanded {
            lastHanded = handed
            used.removeAll()
        }
        // The interval is charged to the runs that were busy at the last look too; a run that
        // began since starts at zero (the interval was partly another statement's, or the
        // caller's own work between statements).
        var busy: [Run: Int64] = [:]
        var longest: Int64 = 0
        var continued = false
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 {
                let run = Run(statement: current, run: sqlite3_stmt_status(current, SQLITE_STMTSTATUS_RUN, 0))
                let total: Int64
                if let before = used[run] {
                    total = before + charged
                    continued = true
                } else {
                    total = 0
                }
                busy[run] = total
                longest = max(longest, total)
            }
            statement = sqlite3_next_stmt(connection, current)
        }
        used = busy
        return budget.check(used: longest, charged: continued ? charged : 0, onReader: onReader) != nil
    }

    private static func threadCPUNanoseconds() -> Int64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
