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
            SELECT o.id, o.change_seq, o.uuid, o.start_us, o.end_us, o.quantity, o.category, o.metadata, o.source_version,
                   s.bundle_identifier, s.name AS source_name,
                   d.name AS d_name, d.manufacturer, d.model, d.hardware_version, d.firmware_version,
                   d.software_version, d.local_identifier, d.udi_device_identifier, d.id AS device_id
            FROM objects o
            JOIN sources s ON s.id = o.source_id
            LEFT JOIN devices d ON d.id = o.device_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY o.change_seq, o.id
            LIMIT ?
            """
        let unit = (HKObjectType.type(forIdentifier: typeIdentifier) as? HKQuantityType)?.canonicalUnit.unitString ?? ""
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            Positioned(position: ChangeCursor(change: row["change_seq"], table: .objects, row: row["id"]),
                       record: try SampleRepository.record(row, typeIdentifier: typeIdentifier, unit: unit, db))
        }
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
