import GRDB

extension SampleSQL {
    /// The rows of one type in `table` that changed after `change` and that `scope` admits: the
    /// `FROM` clause (with its alias) and the condition, for a question asked right after a
    /// commit or a deletion — a long-running query's re-check at a wake-up
    /// (`ChangeFeedSQL.anyChange`), a stream's question whether a visible object left
    /// (`VisibleDeletions`). The condition still needs `alias.type_id = ?` in front of it.
    ///
    /// Why not the feed's rule (`feedVisibility`): for a window scope that walks the type's rows
    /// by (type, start) from the window on — every row the reader may see, which the reader can
    /// add as many of as it likes — and tests each one's change number. A read of the feed
    /// from an old anchor must do that (the rows changed after it would include hidden history),
    /// but a re-check is asked *because* something was committed, and asked whether anyone saved
    /// or deleted: a cost the reader inflates, paid exactly when a hidden app saves or deletes,
    /// told the reader that it had (privacy review, session 19, finding 1). Here a window scope
    /// walks the (type, change) index from `change` on: the rows committed since the question was
    /// last asked, hidden ones included, each tested against the reader's source and window. Its
    /// cost follows what others committed since the last check, which the reader cannot raise
    /// (SECURITY.md, "Work a hidden event triggers"). Other scopes keep their feed ranges, which
    /// never visit a hidden row.
    static func laterChanges(_ scope: ReadScope, alias: String, table: ScopedTable,
                             after change: Int64) -> (from: String, sql: String, arguments: StatementArguments) {
        let name = table == .deletedObjects ? "deleted_objects" : "objects"
        let later = FeedRange.laterChanges(after: change)
        guard case let .recentWindow(appID, since) = scope else {
            let visible = feedVisibility(scope, alias: alias, table: table) { later.condition($0) }
            return ("\(name) \(alias)", visible.sql, visible.arguments)
        }
        let index = table == .deletedObjects ? "deleted_by_type_change" : "objects_by_type_change"
        let rowColumn = table == .deletedObjects ? "rowid" : "id"
        let stretch = later.condition(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: true))
        var arguments = stretch.arguments
        arguments += [appID, since.microsecondsSince1970]
        return ("\(name) \(alias) INDEXED BY \(index)", """
            \(stretch.sql) AND (\(alias).source_id = (SELECT id FROM sources WHERE bundle_identifier = ?) \
            OR \(alias).start_us >= ?)
            """, arguments)
    }
}
