import GRDB

/// Whether a reader lost an object to a deletion after a given change number: the question a
/// stream answered in many frames asks when objects left the store while it waited for its
/// reader (the broker's `StreamVisibility`). Only deletions the reader could see count: a
/// `deleted_objects` row of one of its types that its scope admits (`SampleSQL.feedVisibility`,
/// the change feed's own rule: an index range per scope, so the cost follows visible deletions).
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

    static func anyLeft(_ db: Database, of scopes: [String: ReadScope], after change: Int64) throws -> Bool {
        let later = FeedRange.laterChanges(after: change)
        for (type, scope) in scopes.sorted(by: { $0.key < $1.key }) {
            let typeID = try SampleSQL.typeID(db, type)
            let visible = SampleSQL.feedVisibility(scope, alias: "d", table: .deletedObjects) { later.condition($0) }
            var arguments: StatementArguments = [typeID]
            arguments += visible.arguments
            let statement = try db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM deleted_objects d WHERE d.type_id = ? AND \(visible.sql))
                """)
            if try Bool.fetchOne(statement, arguments: arguments) == true { return true }
        }
        return false
    }
}
