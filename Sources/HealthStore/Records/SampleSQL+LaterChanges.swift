import GRDB

/// The rows of one type in one table that changed after a change number and that a scope admits,
/// as one or two index walks (`SampleSQL.laterChanges`). Each walk is a complete `FROM … WHERE …`
/// over its alias; the questions asked of them are whether any row exists and which objects.
struct LaterChanges {
    let alias: String
    let rowColumn: String
    let walks: [(sql: String, arguments: StatementArguments)]

    /// Whether any of the rows exists: one `EXISTS` per walk, each stopping at its first row.
    var anyRow: (sql: String, arguments: StatementArguments) {
        var arguments = StatementArguments()
        for walk in walks { arguments += walk.arguments }
        return ("(" + walks.map { "EXISTS (SELECT 1 \($0.sql))" }.joined(separator: " OR ") + ")", arguments)
    }

    /// The rows' ids (`objects.id`, `deleted_objects.rowid`), each once.
    var ids: (sql: String, arguments: StatementArguments) {
        var arguments = StatementArguments()
        for walk in walks { arguments += walk.arguments }
        return (walks.map { "SELECT \(alias).\(rowColumn) \($0.sql)" }.joined(separator: " UNION "), arguments)
    }
}

extension SampleSQL {
    /// The rows of type `typeID` in `table` that changed after `change` and that `scope` admits,
    /// for a question asked right after a commit or a deletion — a long-running query's re-check at
    /// a wake-up (`ChangeFeedSQL.anyChange`), a stream's question whether a visible object left
    /// (`VisibleDeletions`). Every walk visits only rows the scope admits (DESIGN §7.3: what an
    /// app's call costs follows what it may see).
    ///
    /// A window scope admits the app's own rows whatever their date and every source's rows from
    /// `since` on, so it is two walks:
    /// - the app's own rows by (type, source, change) from `change` on — only its own changes since;
    /// - the window by (type, start, id, change) from `since` on (v68), testing each entry's
    ///   change number in the index, never reading the table: every in-window row is visited, and
    ///   every one of them is a row the reader may see.
    ///
    /// Before, the window walked the (type, change) index from `change` on, every row committed
    /// since, each tested against the source and the window by reading the table: a check's cost
    /// followed the rows others committed outside the window, and since an app's checks take
    /// turns (`CheckPool`), its deliveries told it when another app saved many rows it may not
    /// see, and roughly how many (privacy review, session 21, finding 2). Before that (session
    /// 19, finding 1) it walked the feed's ranges (`feedVisibility`), which read the table for
    /// each in-window row and walked the app's own rows outside the window as well; the own
    /// walk here reads only what the app changed since.
    ///
    /// What stays: the window walk's cost follows the in-window rows, which the reader may see
    /// and can add to, and it is paid at every wake-up of the type, a hidden save's included
    /// (SECURITY.md, "Work a hidden event triggers"). Other scopes keep their feed ranges, which
    /// never visit a hidden row.
    static func laterChanges(_ scope: ReadScope, alias: String, table: ScopedTable, typeID: Int64,
                             after change: Int64) -> LaterChanges {
        let name = table == .deletedObjects ? "deleted_objects" : "objects"
        let rowColumn = table == .deletedObjects ? "rowid" : "id"
        let later = FeedRange.laterChanges(after: change)
        guard case let .recentWindow(appID, since) = scope else {
            let visible = feedVisibility(scope, alias: alias, table: table) { later.condition($0) }
            var arguments: StatementArguments = [typeID]
            arguments += visible.arguments
            return LaterChanges(alias: alias, rowColumn: rowColumn,
                                walks: [("FROM \(name) \(alias) WHERE \(alias).type_id = ? AND \(visible.sql)", arguments)])
        }
        // The indexes are named: a plan that walked (type, change) would visit hidden rows again.
        let ownIndex = table == .deletedObjects ? "deleted_by_type_source_change" : "objects_by_type_source_change"
        let windowIndex = table == .deletedObjects ? "deleted_by_type_start" : "objects_by_type_start"
        let own = later.condition(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: true))
        let window = later.condition(FeedColumns(alias: alias, rowColumn: rowColumn, indexed: true))
        var ownArguments: StatementArguments = [typeID, appID]
        ownArguments += own.arguments
        var windowArguments: StatementArguments = [typeID, since.microsecondsSince1970]
        windowArguments += window.arguments
        return LaterChanges(alias: alias, rowColumn: rowColumn, walks: [
            ("""
             FROM \(name) \(alias) INDEXED BY \(ownIndex) WHERE \(alias).type_id = ? \
             AND \(alias).source_id = (SELECT id FROM sources WHERE bundle_identifier = ?) AND \(own.sql)
             """, ownArguments),
            ("""
             FROM \(name) \(alias) INDEXED BY \(windowIndex) WHERE \(alias).type_id = ? \
             AND \(alias).start_us >= ? AND \(window.sql)
             """, windowArguments),
        ])
    }
}
