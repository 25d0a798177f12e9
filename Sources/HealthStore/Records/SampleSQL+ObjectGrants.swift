import GRDB

/// Which table a visibility condition confines: the per-object scope
/// (`ReadScope.ownAndGrantedObjects`) names `objects` rows by their grants and `deleted_objects`
/// rows by the grants their object held when it was deleted; other tables (characteristics,
/// activity days) carry no object a grant could name.
enum ScopedTable: Equatable {
    case objects
    case deletedObjects
    case other
}

/// The columns a change-feed stretch (`FeedRange`) is tested on: a row's position in the
/// reader's feed, as a change number and a row id.
struct FeedColumns {
    let change: String
    let row: String

    init(change: String, row: String) {
        self.change = change
        self.row = row
    }

    /// The row's own columns; not `indexed`, with SQLite's unary `+`, which keeps any index from
    /// using them (a window scope's (type, start) range must not be traded for a walk of the
    /// (type, change) index).
    init(alias: String, rowColumn: String, indexed: Bool) {
        let plus = indexed ? "" : "+"
        self.init(change: "\(plus)\(alias).change_seq", row: "\(plus)\(alias).\(rowColumn)")
    }
}

extension SampleSQL {
    /// The rows of `table` (as `alias`) that `appID`'s per-object grants let it see, beyond its
    /// own; nil for a table no grant names.
    static func grantedRows(appID: String, alias: String, table: ScopedTable) -> (sql: String, arguments: StatementArguments)? {
        switch table {
        case .other: nil
        case .objects:
            // The granted objects, and the dose events of granted medications (`grantedDoseRows`,
            // whose arguments follow its SQL, so the two cannot drift apart).
            grantedObjectOrDoseRows(appID: appID, alias: alias)
        case .deletedObjects: ("\(alias).uuid IN (SELECT g.uuid FROM deleted_object_read_grants g WHERE g.app_id = ?)", [appID])
        }
    }

    /// The apps a per-object grant lets read the `objects` row `rowID` — the inverse of
    /// `grantedRows(table: .objects)`, row by row: the apps granted the object itself, and, for a
    /// dose event, the apps granted its medication. `ObjectDeleter` keeps these apps with the
    /// object's tombstone, so each app that could read the object learns of its deletion, and no
    /// other app does. Each row: the app, and the UUID of the medication whose grant lets it read
    /// a dose event (NULL for an object granted itself), so revoking that medication takes the
    /// kept grant too (v38). Arguments: the row id, twice.
    static let appsGrantedObjectRow = """
        SELECT g.app_id, NULL AS through_uuid FROM object_read_grants g WHERE g.object_id = ? \
        UNION SELECT g.app_id, mo.uuid FROM medication_dose_events d JOIN medications m ON m.concept_id = d.concept_id \
        JOIN object_read_grants g ON g.object_id = m.object_id JOIN objects mo ON mo.id = m.object_id WHERE d.object_id = ?
        """

    private static func grantedObjectOrDoseRows(appID: String, alias: String) -> (sql: String, arguments: StatementArguments) {
        let doses = grantedDoseRows(appID: appID, alias: alias)
        var arguments: StatementArguments = [appID]
        arguments += doses.arguments
        return ("(\(alias).id IN (SELECT g.object_id FROM object_read_grants g WHERE g.app_id = ?) OR \(doses.sql))", arguments)
    }

    /// `grantedRows`, only those at a position in `stretch` of the app's change feed.
    ///
    /// The position of a granted object in the app's feed is its grant's change number
    /// (`object_read_grants.change_seq`, never before the object's own): a grant made after the
    /// app's anchor delivers the object with the next batch, and only to that app — other apps'
    /// feeds still place the object at its own change number. The app's own objects keep theirs
    /// (a grant of its own object changes nothing), so this term leaves them to the own term. A
    /// deleted object's tombstone stands at its deletion, after any grant, so it is tested on
    /// its own columns (unindexed, like a window's second term).
    static func grantedFeedRows(appID: String, alias: String, table: ScopedTable,
                                stretch: (FeedColumns) -> (sql: String, arguments: StatementArguments)) -> (sql: String, arguments: StatementArguments)? {
        switch table {
        case .other:
            return nil
        case .objects:
            let range = stretch(FeedColumns(change: "g.change_seq", row: "g.object_id"))
            // A dose event shown by its medication's grant stands at the later of the grant and
            // its own change: a grant made after the app's anchor delivers the medication's
            // earlier doses with the next batch, a dose logged later arrives when it is logged.
            let doseRange = stretch(FeedColumns(change: "MAX(g.change_seq, od.change_seq)", row: "d.object_id"))
            var arguments: StatementArguments = [appID, appID]
            arguments += range.arguments
            arguments += [appID]
            arguments += doseRange.arguments
            return ("""
                (\(alias).source_id IS NOT (SELECT id FROM sources WHERE bundle_identifier = ?) \
                AND (\(alias).id IN (SELECT g.object_id FROM object_read_grants g WHERE g.app_id = ? AND \(range.sql)) \
                OR \(alias).id IN (SELECT d.object_id FROM object_read_grants g JOIN medications m ON m.object_id = g.object_id \
                JOIN medication_dose_events d ON d.concept_id = m.concept_id JOIN objects od ON od.id = d.object_id \
                WHERE g.app_id = ? AND \(doseRange.sql))))
                """, arguments)
        case .deletedObjects:
            guard let granted = grantedRows(appID: appID, alias: alias, table: table) else { return nil }
            let range = stretch(FeedColumns(alias: alias, rowColumn: "rowid", indexed: false))
            return ("(\(granted.sql) AND \(range.sql))", granted.arguments + range.arguments)
        }
    }

    /// The change number at which an `objects` row (as `alias`) stands in the feed of a reader
    /// with `scope`: its own change number, except for an object a per-object grant shows,
    /// which stands at its grant (`grantedFeedRows`). Change-feed reads select and order by this.
    static func feedChange(_ scope: ReadScope, alias: String) -> (sql: String, arguments: StatementArguments) {
        guard case let .ownAndGrantedObjects(appID) = scope else { return ("\(alias).change_seq", []) }
        return ("""
            (CASE WHEN \(alias).source_id IS (SELECT id FROM sources WHERE bundle_identifier = ?) THEN \(alias).change_seq \
            ELSE COALESCE((SELECT g.change_seq FROM object_read_grants g WHERE g.app_id = ? AND g.object_id = \(alias).id), \
            (SELECT MAX(g.change_seq, \(alias).change_seq) FROM medication_dose_events d JOIN medications m ON m.concept_id = d.concept_id \
            JOIN object_read_grants g ON g.object_id = m.object_id WHERE d.object_id = \(alias).id AND g.app_id = ?)) END)
            """, [appID, appID, appID])
    }
}
