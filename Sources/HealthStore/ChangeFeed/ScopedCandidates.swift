import GRDB

/// A question over the objects a reader's scope admits — a wake-up check, "did anything matching
/// the app's predicate change after the cursor?" — asked in two parts, so that only the app's
/// own request can make its budget stop it:
/// 1. the scope's walk (`candidates`: the ids of the objects the scope admits that changed after
///    the cursor, `SampleSQL.laterChanges`; for a window it visits every in-window row) under
///    `StatementBudget.overScope`, which no CPU use stops (only the call's end or a drain);
/// 2. the app's predicate over those ids, a chunk at a time, under the call's budget: what it
///    costs follows the rows the app may see, as any of its queries does.
/// In one statement the predicate's cost and the walk over hidden rows shared one budget, and
/// enough hidden commits stopped a window reader's check where its twin's never stopped
/// (privacy review, session 20, finding 2).
///
/// The walk is read whole before the predicate runs: no statement of the walk is busy while one
/// of the call's budget steps. With the walk open as a cursor between the predicate's chunks,
/// `StatementWatch` charged the cursor's run — the walk over hidden rows included — to whichever
/// budget looked at it first, and that was often the call's: with a budget between the two
/// worlds' costs the hidden world's check stopped and its twin's answered (privacy review,
/// session 21, finding 1). The ids are those the scope admits, so what they take in memory
/// follows the rows the app may see. `StatementWatch` asserts, in debug builds, that no
/// connection has statements of two budgets busy at once.
enum ScopedCandidates {
    /// Ids tested per statement of the predicate: small enough that the first match ends the
    /// question soon, with few ids tested past it.
    static let chunk = 256

    /// Whether any object among `candidates` (a statement selecting object ids) satisfies
    /// `condition` (over alias `o`, `SampleSQL.condition`).
    static func anyMatches(_ db: Database, candidates: (sql: String, arguments: StatementArguments),
                           condition: (sql: String, arguments: StatementArguments)) throws -> Bool {
        let ids = try StatementBudget.overScope {
            try Int64.fetchAll(db, sql: candidates.sql, arguments: candidates.arguments)
        }
        guard !ids.isEmpty else { return false }
        let test = try db.makeStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM objects o WHERE o.id IN (SELECT value FROM json_each(?)) AND (\(condition.sql)))
            """)
        for start in stride(from: 0, to: ids.count, by: chunk) {
            var arguments: StatementArguments = ["[" + ids[start..<min(start + chunk, ids.count)].map(String.init).joined(separator: ",") + "]"]
            arguments += condition.arguments
            if try Bool.fetchOne(test, arguments: arguments) == true { return true }
        }
        return false
    }
}
