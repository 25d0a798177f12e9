/// A position in one type's change feed: everything at or before it has been delivered.
///
/// The feed orders a type's changes by change number (`counters.change`, bumped once per
/// committed write), and within one change lists deletions before additions, each in row order.
/// Several objects share a change number (a save of many samples is one change), so a delivery
/// cut short by a limit must remember the row too, not only the change number.
///
/// The broker never hands a cursor to an app as is: it travels sealed (`AnchorSealer`), because
/// its numbers move with every change in the store, including changes the app may not see.
public struct ChangeCursor: Sendable, Hashable {
    /// Which table a position's row is in; deletions of a change come before its additions.
    public enum Table: UInt8, Sendable, Comparable {
        case deletedObjects = 0
        case objects = 1

        public static func < (lhs: Table, rhs: Table) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let change: Int64
    public let table: Table
    public let row: Int64

    public init(change: Int64, table: Table, row: Int64) {
        self.change = change
        self.table = table
        self.row = row
    }

    /// Before the first change: a query from here delivers everything.
    public static let origin = ChangeCursor(completeThrough: 0)

    /// After every row of `change` and of all changes before it.
    public init(completeThrough change: Int64) {
        self.init(change: change, table: .objects, row: Int64.max)
    }

    /// Whether this position comes before `other` in the feed's order.
    func precedes(_ other: ChangeCursor) -> Bool {
        (change, table.rawValue, row) < (other.change, other.table.rawValue, other.row)
    }
}
