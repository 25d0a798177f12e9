public import GRDB

/// Where a sample or correlation query stopped because its reader's view went stale (the
/// broker's `StreamVisibility` refused the next frame): how many rows it sent, and the sort values
/// and row id of the last row sent. The query goes on from there in a new reading, under the scope
/// in force now (`SampleRepository.queryFetched(_:scope:batching:resuming:within:emit:)`):
/// - after the last row sent in the query's order (its sort terms, then the row id);
/// - with a limit, the rows sent count towards it: a sort+limit query sends at most its limit in
///   all, the rest taken from what is visible now;
/// - only over rows committed by the first reading: not this position's business but the
///   answer's `ReadSnapshot`, the one bound every answer read more than once takes (the change
///   feed, statistics, activity summaries and effort relations too). So the answer is still the
///   one reading it would have been, less what the reader may no longer see — and what was
///   deleted meanwhile.
public struct SampleQueryResume: Sendable {
    private(set) var sent = 0
    private var lastKeys: [DatabaseValue] = []
    private var lastID: Int64?

    /// The position before any row.
    init() {}

    /// The limit left for the next reading: 0 for none, nil when the limit is reached.
    func remainingLimit(_ limit: Int) -> Int? {
        guard limit > 0 else { return 0 }
        return limit > sent ? limit - sent : nil
    }

    /// `count` more rows were sent, the last of them with sort values `keys` and row id `id`.
    mutating func advance(by count: Int, lastKeys keys: [DatabaseValue], lastID id: Int64) {
        sent += count
        lastKeys = keys
        lastID = id
    }

    /// The condition a continuation adds over `o`: after the last row sent in the order `terms`
    /// (each with its direction), then `o.id` ascending; nil before any row was sent. NULL sorts
    /// first ascending and last descending, as in `ORDER BY`.
    func condition(_ terms: [SampleSQL.OrderTerm]) -> (sql: String, arguments: StatementArguments)? {
        guard let lastID else { return nil }
        var arguments = StatementArguments()
        var alternatives: [String] = []
        var equalSQL: [String] = []
        var equalArguments = StatementArguments()
        for (term, value) in zip(terms, lastKeys) {
            if let after = Self.after(term, value) {
                alternatives.append((equalSQL + [after.sql]).joined(separator: " AND "))
                arguments += equalArguments
                arguments += after.arguments
            }
            equalSQL.append("\(term.sql) IS ?")
            equalArguments += term.arguments
            equalArguments += [value]
        }
        alternatives.append((equalSQL + ["o.id > ?"]).joined(separator: " AND "))
        arguments += equalArguments
        arguments += [lastID]
        return ("(\(alternatives.map { "(\($0))" }.joined(separator: " OR ")))", arguments)
    }

    /// The rows whose `term` comes after `value` in the term's direction; nil for none.
    private static func after(_ term: SampleSQL.OrderTerm, _ value: DatabaseValue) -> (sql: String, arguments: StatementArguments)? {
        switch (term.ascending, value.isNull) {
        case (true, true): return ("\(term.sql) IS NOT NULL", term.arguments)
        case (true, false): return ("\(term.sql) > ?", term.arguments + [value])
        case (false, true): return nil
        case (false, false): return ("(\(term.sql) < ? OR \(term.sql) IS NULL)", term.arguments + [value] + term.arguments)
        }
    }
}

/// The sort values and row id of the last row a batch holds: where `SampleQueryResume` stands
/// once the batch is sent. Read for every row (a batch may end before the next one), into the
/// same storage each time.
struct ResumeKeys {
    private(set) var values: [DatabaseValue] = []
    private(set) var id: Int64 = 0

    mutating func read(_ row: Row, _ keyColumns: [Int], id: Int64) {
        if values.count != keyColumns.count {
            values = Array(repeating: .null, count: keyColumns.count)
        }
        for (slot, column) in keyColumns.enumerated() {
            values[slot] = row[column]
        }
        self.id = id
    }
}
