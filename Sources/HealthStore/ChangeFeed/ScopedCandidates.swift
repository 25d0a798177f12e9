import GRDB

/// A question over the objects a reader's scope admits among rows it may not see — a wake-up
/// check, "did anything matching the app's predicate change after the cursor?" — asked in two
/// parts, so that only the app's own request can make its budget stop it:
/// 1. the scope's walk (`candidates`: the ids of the objects the scope admits, which for a window
///    walks every row committed since, hidden ones included) under `StatementBudget.overScope`,
///    which no CPU use stops (only the call's end or a drain): what it costs follows what others
///    committed, and a stop there would tell the app how much that was;
/// 2. the app's predicate over those ids, a chunk at a time, under the call's budget: what it
///    costs follows the rows the app may see, as any of its queries does.
/// In one statement the predicate's cost and the walk over hidden rows shared one budget, and
/// enough hidden commits stopped a window reader's check where its twin's never stopped
/// (privacy review, session 20, finding 2).
enum ScopedCandidates {
    /// Ids tested per statement of the predicate: small enough that the first match ends the
    /// question soon after the scope's walk reaches it.
    static let chunk = 256

    /// Whether any object among `candidates` (a statement selecting object ids) satisfies
    /// `condition` (over alias `o`, `SampleSQL.condition`).
    static func anyMatches(_ db: Database, candidates: (sql: String, arguments: StatementArguments),
                           condition: (sql: String, arguments: StatementArguments)) throws -> Bool {
        let budget = StatementBudget.current
        let test = try db.makeStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM objects o WHERE o.id IN (SELECT value FROM json_each(?)) AND (\(condition.sql)))
            """)
        func anyMatch(_ ids: [Int64]) throws -> Bool {
            var arguments: StatementArguments = ["[" + ids.map(String.init).joined(separator: ",") + "]"]
            arguments += condition.arguments
            return try StatementBudget.$current.withValue(budget) { try Bool.fetchOne(test, arguments: arguments) } == true
        }
        return try StatementBudget.overScope {
            let rows = try Int64.fetchCursor(db, sql: candidates.sql, arguments: candidates.arguments)
            var ids: [Int64] = []
            ids.reserveCapacity(chunk)
            while let id = try rows.next() {
                ids.append(id)
                if ids.count == chunk {
                    if try anyMatch(ids) { return true }
                    ids.removeAll(keepingCapacity: true)
                }
            }
            return try !ids.isEmpty && anyMatch(ids)
        }
    }
}
