import GRDB
import HealthModel

/// The change feed's statements. Each table is read in (change, row) order from the cursor on,
/// confined by `SampleSQL.visibility` so the `(type_id[, source_id], change_seq)` indexes
/// bound the scan to what the scope may see.
enum ChangeFeedSQL {
    struct Positioned<Record> {
        let position: ChangeCursor
        let record: Record
    }

    /// Deleted objects after `cursor`; `limit` -1 for all.
    static func deletions(_ db: Database, typeID: Int64, scope: ReadScope,
                          after cursor: ChangeCursor, limit: Int) throws -> [Positioned<DeletedObjectRecord>] {
        let visible = SampleSQL.visibility(scope, alias: "d")
        // Within the cursor's change, deletions are all behind a cursor that is already at the
        // additions, and those up to its row behind one still at the deletions.
        let sql = """
            SELECT d.rowid AS row, d.change_seq, d.uuid, d.sync_identifier, d.sync_version
            FROM deleted_objects d
            WHERE d.type_id = ? AND \(visible.sql) AND d.change_seq >= ?
              AND NOT (d.change_seq = ? AND (? OR d.rowid <= ?))
            ORDER BY d.change_seq, d.rowid
            LIMIT ?
            """
        var arguments: StatementArguments = [typeID]
        arguments += visible.arguments
        arguments += [cursor.change, cursor.change, cursor.table == .objects, cursor.row, limit]
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            var sync: SyncIdentity?
            if let identifier: String = row["sync_identifier"], let version: Int64 = row["sync_version"] {
                sync = SyncIdentity(identifier: identifier, version: version)
            }
            return Positioned(position: ChangeCursor(change: row["change_seq"], table: .deletedObjects, row: row["row"]),
                              record: DeletedObjectRecord(uuid: row["uuid"], syncIdentity: sync))
        }
    }

    /// Objects after `cursor` that match `predicate`; `limit` -1 for all.
    static func additions(_ db: Database, typeID: Int64, typeIdentifier: String, predicate: SamplePredicate?,
                          scope: ReadScope, after cursor: ChangeCursor, limit: Int) throws -> [Positioned<SampleRecord>] {
        let visible = SampleSQL.visibility(scope)
        var conditions = ["o.type_id = ?", visible.sql, "o.change_seq >= ?", "NOT (o.change_seq = ? AND ? AND o.id <= ?)"]
        var arguments: StatementArguments = [typeID]
        arguments += visible.arguments
        arguments += [cursor.change, cursor.change, cursor.table == .objects, cursor.row]
        if let predicate {
            let compiled = SampleSQL.condition(predicate)
            conditions.append("(\(compiled.sql))")
            arguments += compiled.arguments
        }
        arguments += [limit]
        let sql = """
            SELECT o.change_seq, \(SampleRowDecoder.columns)
            FROM objects o
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY o.change_seq, o.id
            LIMIT ?
            """
        let statement = try db.makeStatement(sql: sql)
        var decoder = SampleRowDecoder(statement)
        var additions: [Positioned<SampleRecord>] = []
        if limit > 0 { additions.reserveCapacity(limit) }
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try rows.next() {
            // Column 0 is change_seq, selected before the decoder's columns.
            let record = try decoder.record(row, typeIdentifier: typeIdentifier, db)
            additions.append(Positioned(position: ChangeCursor(change: row[0], table: .objects, row: decoder.objectID(row)),
                                        record: record))
        }
        return additions
    }

    /// Whether any visible addition matching `predicate`, or any visible deletion, has a change
    /// number above `change`. Stops at the first one found.
    static func anyChange(_ db: Database, typeID: Int64, predicate: SamplePredicate?, scope: ReadScope,
                          after change: Int64) throws -> Bool {
        let visibleObjects = SampleSQL.visibility(scope)
        let visibleDeletions = SampleSQL.visibility(scope, alias: "d")
        var objectConditions = ["o.type_id = ?", visibleObjects.sql, "o.change_seq > ?"]
        var arguments: StatementArguments = [typeID]
        arguments += visibleObjects.arguments
        arguments += [change]
        if let predicate {
            let compiled = SampleSQL.condition(predicate)
            objectConditions.append("(\(compiled.sql))")
            arguments += compiled.arguments
        }
        arguments += [typeID]
        arguments += visibleDeletions.arguments
        arguments += [change]
        let sql = """
            SELECT EXISTS (SELECT 1 FROM objects o WHERE \(objectConditions.joined(separator: " AND ")))
                OR EXISTS (SELECT 1 FROM deleted_objects d WHERE d.type_id = ? AND \(visibleDeletions.sql) AND d.change_seq > ?)
            """
        return try Bool.fetchOne(db, sql: sql, arguments: arguments) ?? false
    }
}
