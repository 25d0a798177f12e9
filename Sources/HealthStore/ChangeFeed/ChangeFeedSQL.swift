import GRDB
import HealthModel

/// The change feed's statements. Each table is read in (change, row) order from the cursor on
/// (`FeedRange`), confined by `SampleSQL.feedVisibility` so indexes bound the scan to what the
/// scope may see: `(type_id[, source_id], change_seq)`, and for a window scope also
/// `(type_id, start_us)` on both tables (migration v11).
enum ChangeFeedSQL {
    /// Deleted objects after `cursor`, through change number `through`; `limit` -1 for all.
    /// With `batching`, each row is measured and the reading stops once they reach its bytes.
    static func deletions(_ db: Database, typeID: Int64, scope: ReadScope, after cursor: ChangeCursor, through: Int64,
                          limit: Int, batching: ChangeFeedBatching? = nil) throws -> FeedRows<DeletedObjectRecord> {
        var deletions = FeedRows<DeletedObjectRecord>()
        for range in FeedRange.after(cursor, in: .deletedObjects) {
            let remaining = limit < 0 ? -1 : limit - deletions.count
            guard remaining != 0, !deletions.cutShort else { break }
            let visible = SampleSQL.feedVisibility(scope, alias: "d", table: .deletedObjects) { range.condition($0, through: through) }
            var arguments: StatementArguments = [typeID]
            arguments += visible.arguments
            arguments += [remaining]
            // One of a few texts (scope kind × range kind): prepared once per connection.
            let statement = try db.cachedStatement(sql: """
                SELECT d.rowid AS row, d.change_seq, d.uuid, d.sync_identifier, d.sync_version
                FROM deleted_objects d
                WHERE d.type_id = ? AND \(visible.sql)
                ORDER BY d.change_seq, d.rowid
                LIMIT ?
                """)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                var sync: SyncIdentity?
                if let identifier: String = row["sync_identifier"], let version: Int64 = row["sync_version"] {
                    sync = SyncIdentity(identifier: identifier, version: version)
                }
                let deleted = DeletedObjectRecord(uuid: row["uuid"], syncIdentity: sync)
                let size = batching?.measureDeleted(deleted)
                deletions.append(deleted, at: ChangeCursor(change: row["change_seq"], table: .deletedObjects, row: row["row"]))
                if let batching, let size {
                    deletions.measuredLast(size)
                    if deletions.bytes >= batching.bytes {
                        deletions.cutShort = true
                        break
                    }
                }
            }
        }
        return deletions
    }

    /// Objects after `cursor`, through change number `through`, that match `predicate`; `limit` -1 for all.
    /// With `batching`, each row is measured and the reading stops once they reach its bytes —
    /// but for a correlation type, whose rows are measured whole once their samples are attached.
    static func additions(_ db: Database, typeID: Int64, typeIdentifier: String, predicate: SamplePredicate?,
                          scope visibility: Visibility, after cursor: ChangeCursor, through: Int64, limit: Int,
                          batching: ChangeFeedBatching? = nil) throws -> FeedRows<SampleRecord> {
        let correlations = !CorrelationRules.memberTypes(of: typeIdentifier).isEmpty
        // The predicate's side rows are bounded like the rows: the delivery's `through`.
        let compiled = try predicate.map { try SampleSQL.condition($0, of: typeIdentifier, within: visibility.bounded(through: through), db) }
        // Where each row stands in this reader's feed: its change number, or for an object a
        // per-object grant shows, the grant's (`SampleSQL.feedChange`).
        let position = SampleSQL.feedChange(visibility.scope, alias: "o")
        var additions = FeedRows<SampleRecord>()
        if limit > 0 { additions.reserveCapacity(limit) }
        for range in FeedRange.after(cursor, in: .objects) {
            let remaining = limit < 0 ? -1 : limit - additions.count
            guard remaining != 0, !additions.cutShort else { break }
            let visible = SampleSQL.feedVisibility(visibility.scope, alias: "o", table: .objects) { range.condition($0, through: through) }
            var conditions = ["o.type_id = ?", visible.sql]
            var arguments = position.arguments
            arguments += [typeID]
            arguments += visible.arguments
            if let compiled {
                conditions.append("(\(compiled.sql))")
                arguments += compiled.arguments
            }
            arguments += [remaining]
            let sql = """
                SELECT \(position.sql), \(SampleRowDecoder.columns)
                FROM objects o
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY 1, o.id
                LIMIT ?
                """
            // Without a predicate the text is one of a few (scope kind × range kind): cached,
            // it is prepared once, not on every step of a delivery. A predicate's text varies
            // (a list of UUIDs has as many placeholders as UUIDs), so it is not kept.
            let statement = compiled == nil ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
            var decoder = SampleRowDecoder(statement, workoutValues: visibility.workoutValues)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                // Column 0 is the feed position, selected before the decoder's columns.
                let record = try decoder.record(row, typeIdentifier: typeIdentifier, db)
                let size = correlations ? nil : batching?.measureAdded(record)
                additions.append(record, at: ChangeCursor(change: row[0], table: .objects, row: decoder.objectID(row)))
                if let batching, let size {
                    additions.measuredLast(size)
                    if additions.bytes >= batching.bytes {
                        additions.cutShort = true
                        break
                    }
                }
            }
        }
        if correlations {
            additions.records = try wholeCorrelations(additions, db)
            if let batching {
                for record in additions.records { additions.measuredLast(batching.measureAdded(record)) }
            }
        }
        return additions
    }

    /// A correlation's row holds no value: its samples are rows of their own, attached here as
    /// correlation queries attach them (`SampleRepository.withObjects`), so the feed hands out
    /// whole correlations — without this an anchored query of blood pressure sent rows the SDK
    /// could not represent. Visibility was decided for the correlation row; its samples share
    /// its source and start no earlier than it (`CorrelationRules`). In chunks: one statement
    /// names each chunk's ids, and an unlimited delivery may hold many.
    private static func wholeCorrelations(_ additions: FeedRows<SampleRecord>, _ db: Database) throws -> [SampleRecord] {
        let rows = zip(additions.positions, additions.records).map { (id: $0.row, record: $1) }
        var whole: [SampleRecord] = []
        whole.reserveCapacity(rows.count)
        for start in stride(from: 0, to: rows.count, by: correlationChunk) {
            whole += try SampleRepository.withObjects(Array(rows[start..<min(start + correlationChunk, rows.count)]), db)
        }
        return whole
    }

    private static let correlationChunk = 500

    /// Whether any visible addition matching `predicate`, or any visible deletion, has a change
    /// number above `change`. Stops at the first one found.
    ///
    /// The walks of what changed since are the scope's (`SampleSQL.laterChanges`: rows it admits
    /// only) and run under `StatementBudget.overScope`, which no CPU use stops; the app's
    /// predicate is evaluated only over the rows the scope admitted, under the call's budget
    /// (`ScopedCandidates`). So a check is stopped for CPU only by what its predicate costs over
    /// rows the app may see (privacy review, session 20, finding 2).
    static func anyChange(_ db: Database, typeID: Int64, typeIdentifier: String, predicate: SamplePredicate?, scope visibility: Visibility,
                          after change: Int64) throws -> Bool {
        // The rows changed after the check's cursor that the scope admits (SampleSQL.laterChanges).
        let objects = SampleSQL.laterChanges(visibility.scope, alias: "o", table: .objects, typeID: typeID, after: change)
        let anyDeletion = SampleSQL.laterChanges(visibility.scope, alias: "d", table: .deletedObjects, typeID: typeID, after: change).anyRow
        guard let predicate else {
            // Nothing of the request to evaluate: one statement, the scope's walks alone.
            let anyObject = objects.anyRow
            return try StatementBudget.overScope {
                try Bool.fetchOne(db, sql: "SELECT \(anyObject.sql) OR \(anyDeletion.sql)",
                                  arguments: anyObject.arguments + anyDeletion.arguments) ?? false
            }
        }
        let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: visibility, db)
        let deleted = try StatementBudget.overScope {
            try Bool.fetchOne(db, sql: "SELECT \(anyDeletion.sql)", arguments: anyDeletion.arguments) ?? false
        }
        if deleted { return true }
        return try ScopedCandidates.anyMatches(db, candidates: objects.ids, condition: compiled)
    }
}
