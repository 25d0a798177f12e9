import Glibc
import GRDB
import GRDBSQLite

/// The progress handler of one store connection: every `interval` VM steps it charges the CPU
/// time used since its last look to each busy statement run of the connection, and asks the
/// call's `StatementBudget` (the task-local of the thread stepping it) whether to go on.
/// Statements run for no app call (healthctl, the broker's own work) have no budget and are
/// never stopped here.
///
/// A budget is charged only what its own call's statement runs computed (privacy review,
/// session 20, finding 1). The CPU time between two looks goes to the runs that were busy at
/// both, under the same budget and on the same thread — and a run is named exactly:
/// - Not by its statement's address and run count, which SQLite repeats: a freshly prepared
///   statement gets the address of the one finalized just before it, and every fresh statement's
///   first run counts 1, so an uncached statement inherited its predecessor's CPU — another
///   call's, another app's — and the CPU its thread spent between the two.
/// - By a mark the watch leaves in SQLite itself: at each look it reads each busy statement's
///   run counter (`SQLITE_STMTSTATUS_RUN`, incremented by OP_Init at the start of every run of
///   the statement, never by a trigger's program) and resets it to 0. A counter still at 0 is
///   the run the watch looked at last time; anything above is a run begun since — a fresh
///   statement at a reused address included — which starts at zero. (Not VM steps: SQLite adds
///   `SQLITE_STMTSTATUS_VM_STEP` only when `sqlite3_step` returns, so a statement computing
///   inside one step shows no progress from look to look.)
/// - Budgets by `StatementBudget.serial`, never by address.
/// So a statement begins at zero, the work its thread did before it (its own call's, or
/// another's on a shared thread) is charged to nothing, and a run ends with its access: GRDB
/// resets a statement before each execution, and its cursors reset theirs when they go (they
/// do not outlive the access).
///
/// An outer cursor keeps what it used while inner statements of its budget run per row.
/// Statements of two budgets must never be busy on one connection at once: the watch cannot tell
/// which busy statement is stepping, so a run is labelled with the budget of whichever look sees
/// it first, and an outer cursor of one budget (a scope walk, `StatementBudget.overScope`) first
/// seen by a look of another (the call's predicate) had its own stepping charged to that other
/// budget (privacy review, session 21, finding 1). Debug builds assert it at every look
/// (`ScopedCandidates` reads a walk whole before evaluating anything under the call's budget).
///
/// The watch resets the run counters of the busy statements it looks at under a budget, so that
/// counter no longer counts a connection's runs of those statements (nothing in the store reads it).
final class StatementWatch: @unchecked Sendable {
    // @unchecked: the mutable state is touched only by the progress handler, which runs on the
    // thread stepping the connection; SQLite uses a connection from one thread at a time.

    /// VM steps between two looks: a few tens of microseconds of ordinary work, so the look
    /// (a clock read and a walk of the connection's prepared statements) costs ~1–2 %.
    static let interval: Int32 = 20_000

    private let connection: OpaquePointer
    private let onReader: Bool
    /// The busy statement runs at the last look, by statement (a statement has one run at a time).
    private var runs: [OpaquePointer: Run] = [:]
    /// The last look made under a budget: the thread's CPU clock then, the thread and the budget.
    private var last: Look?

    private struct Run {
        /// The budget the run is charged to (`StatementBudget.serial`).
        let budget: UInt64
        /// The budget's messages handed when the run's count last began anew (`answerHanded`).
        var handed: UInt64
        /// CPU time charged to the run since it began, or since its call last handed a message.
        var used: Int64
    }

    private struct Look {
        let cpu: Int64
        let thread: pthread_t
        let budget: UInt64
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
            // Work for no call: whatever runs were busy, nothing is charged across it.
            if !runs.isEmpty { runs.removeAll() }
            last = nil
            return false
        }
        let now = Self.threadCPUNanoseconds()
        let thread = pthread_self()
        // CPU time of this thread only: on another thread (the connection moved) or after the
        // budget changed hands, nothing is charged for the interval.
        let sameHands = last.map { pthread_equal($0.thread, thread) != 0 && $0.budget == budget.serial } == true
        let interval = sameHands ? max(0, now - (last?.cpu ?? now)) : 0
        last = Look(cpu: now, thread: thread, budget: budget.serial)
        let handed = budget.messagesHanded
        // The interval is charged to the runs of this budget that were busy at the last look too;
        // a run that began since starts at zero (the interval was partly another statement's, or
        // the caller's own work between statements, or another call's on this thread).
        var busy: [OpaquePointer: Run] = [:]
        var longest: Int64 = 0
        var continued = false
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 {
                // Read and reset: 0 means no run of it began since the watch last looked at it.
                let begunSince = sqlite3_stmt_status(current, SQLITE_STMTSTATUS_RUN, 1)
                var run: Run
                if begunSince == 0, let before = runs[current] {
                    run = before
                    // A run still busy since a look under another budget: two budgets' statements
                    // are busy on this connection at once, and the interval is charged to
                    // whichever label this run got first (see the type's comment).
                    assert(before.budget == budget.serial,
                           "statements of two budgets busy on one connection: read the outer statement whole first")
                    if before.budget == budget.serial {
                        continued = true
                        if run.handed != handed {
                            run.handed = handed
                            run.used = 0
                        }
                        run.used += interval
                        longest = max(longest, run.used)
                    }
                } else {
                    run = Run(budget: budget.serial, handed: handed, used: 0)
                }
                busy[current] = run
            }
            statement = sqlite3_next_stmt(connection, current)
        }
        runs = busy
        return budget.check(used: longest, charged: continued ? interval : 0, onReader: onReader) != nil
    }

    private static func threadCPUNanoseconds() -> Int64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
