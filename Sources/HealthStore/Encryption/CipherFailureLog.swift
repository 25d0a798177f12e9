import GRDB

/// Hands the page cipher's authentication-failure reports to the caller's log. The cipher
/// reports a page, WAL frame or journal record that fails authentication through SQLite's
/// error log (`sqlite3_log`, CPageCipher/failure_report.c: kind, number and file, never page
/// content or key material); at open the store also turns it into `StoreOpenError.corrupt`,
/// but a read that meets a tampered page later fails with SQLite's I/O error only, on a
/// database thread. Without this the one line saying *which* page was modified went nowhere
/// (DESIGN.md §5: a flipped bit is detected and reported).
public enum CipherFailureLog {
    /// Routes every `ohk-cipher:` line to `report`; SQLite's other log lines are dropped (they
    /// can quote statements, which is not what this log is for). SQLite takes its log callback
    /// only before the first connection opens: call this before opening the store.
    public static func install(_ report: @escaping @Sendable (String) -> Void) {
        Database.logError = { _, message in
            if message.hasPrefix("ohk-cipher:") { report(message) }
        }
    }
}
