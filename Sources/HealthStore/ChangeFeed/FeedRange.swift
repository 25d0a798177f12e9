import GRDB

/// A stretch of one table's change feed that a single index range holds. A table's rows after
/// a cursor are at most two of them, read in this order: the rest of the cursor's own change,
/// then every later change.
///
/// Why two: a cursor is often inside a change (a save of 10,000 samples is one change, and a
/// delivery steps through it 500 at a time). `change_seq = ? AND row > ?` lets SQLite seek
/// straight to the next row in the `(type_id[, source_id], change_seq)` indexes, whose last
/// column is the row id. One condition covering both stretches — "change_seq >= ? AND NOT
/// (...)", or the row value `(change_seq, row) > (?, ?)`, which SQLite 3.40 seeks on by change
/// only — made every step walk again over the rows of the change it had already delivered.
enum FeedRange: Equatable {
    /// Rows of `change` after row id `afterRow`.
    case restOfChange(change: Int64, afterRow: Int64)
    /// Rows of every change after `change`.
    case laterChanges(after: Int64)

    /// The ranges of `table` after `cursor`, in feed order (within a change, deletions come
    /// before additions).
    static func after(_ cursor: ChangeCursor, in table: ChangeCursor.Table) -> [FeedRange] {
        let later = FeedRange.laterChanges(after: cursor.change)
        switch (table, cursor.table) {
        case (.deletedObjects, .objects):
            return [later]  // the cursor is past all of its change's deletions
        case (.objects, .deletedObjects):
            return [.restOfChange(change: cursor.change, afterRow: Int64.min), later]  // none of its additions yet
        default:
            return cursor.row == Int64.max ? [later] : [.restOfChange(change: cursor.change, afterRow: cursor.row), later]
        }
    }

    /// The condition over `alias`, whose row id is `rowColumn`. Not `indexed`: the same test
    /// with SQLite's unary `+` on the columns, which keeps any index from using them (a window
    /// scope's (type, start) range must not be traded for a walk of the (type, change) index).
    func condition(alias: String, rowColumn: String, indexed: Bool = true) -> (sql: String, arguments: StatementArguments) {
        condition(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: indexed))
    }

    /// The condition over a feed position held in `columns`, at most `through`: a delivery's
    /// snapshot (`ReadSnapshot`) bounds every stretch, whichever column holds its position.
    func condition(_ columns: FeedColumns, through: Int64) -> (sql: String, arguments: StatementArguments) {
        let stretch = condition(columns)
        return ("\(stretch.sql) AND \(columns.change) <= ?", stretch.arguments + [through])
    }

    /// The condition over a feed position held in `columns` (a row's own columns, or a
    /// per-object grant's: `SampleSQL.grantedFeedRows`).
    func condition(_ columns: FeedColumns) -> (sql: String, arguments: StatementArguments) {
        switch self {
        case let .restOfChange(change, afterRow):
            return ("\(columns.change) = ? AND \(columns.row) > ?", [change, afterRow])
        case let .laterChanges(change):
            return ("\(columns.change) > ?", [change])
        }
    }
}
