import GRDB

/// Whether a reader lost an object to a deletion after a given change number: the question a
/// stream answered in many frames asks when objects left the store while it waited for its
/// reader (the broker's `StreamVisibility`). Only deletions the reader could see count: a
/// `deleted_objects` row of one of its types that its scope admits, found among the deletions
/// after the reading (`SampleSQL.laterChanges`: for a window, its own deletions since the reading
/// and the window's tombstones, each tested in the index; never another app's deletions outside
/// the window).
/// A deletion it could not see cannot have removed anything it was computed from, and must not
/// make it read again: whether an answer is read again would otherwise tell its reader that some
/// app deleted something (DESIGN.md §7.3). The twin store — the same without what the reader
/// cannot see — makes the same visible deletions, so both answer alike.
///
/// Asked on a connection of its own (`EncryptedDatabase.sideReader`): the asking stream may hold a
/// read transaction of the pool open, whose snapshot predates the deletions it asks about.
public struct VisibleDeletions: Sendable {
    let reader: (any DatabaseReader)?

    /// `reader`: nil for a store without a side connection (an in-memory one in tests), which
    /// answers true always — a needless reading again, never a missed one.
    init(reader: (any DatabaseReader)?) {
        self.reader = reader
    }

    /// Whether a deletion committed after change number `change` removed an object of one of
    /// `scopes`' types (sample type identifiers) that its scope admits.
    public func anyLeft(of scopes: [String: ReadScope], after change: Int64) throws -> Bool {
        guard let reader else { return true }
        return try reader.read { db in try Self.anyLeft(db, of: scopes, after: change) }
    }

    /// The walk is the scope's alone (no predicate of the app's), over deletions it may not see:
    /// under `StatementBudget.overScope`, stopped by the call's end or a drain, never for CPU
    /// (privacy review, session 20, finding 2).
    static func anyLeft(_ db: Database, of scopes: [String: ReadScope], after change: Int64) throws -> Bool {
        try StatementBudget.overScope { try anyLeftOverScope(db, of: scopes, after: change) }
    }

    private static func anyLeftOverScope(_ db: Database, of scopes: [String: ReadScope], after change: Int64) throws -> Bool {
        for (type, scope) in scopes.sorted(by: { $0.key < $1.key }) {
            let typeID = try SampleSQL.typeID(db, type)
            // The deletions after the reading, not the tombstones the scope shows (SampleSQL.laterChanges).
            let visible = SampleSQL.laterChanges(scope, alias: "d", table: .deletedObjects, typeID: typeID, after: change).anyRow
            let statement = try db.cachedStatement(sql: "SELECT \(visible.sql)")
            if try Bool.fetchOne(statement, arguments: visible.arguments) == true { return true }
        }
        return false
    }
}
