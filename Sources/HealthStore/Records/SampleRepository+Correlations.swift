import Foundation
import GRDB
public import HealthModel

/// Correlations: an `objects` row of the correlation type (no value) plus one
/// `correlation_members` row per sample it holds; the samples are ordinary `objects` rows of
/// their own types, so queries of those types find them like any other sample.
extension SampleRepository {
    /// Inserts a correlation's samples as objects saved by the same source in the same change
    /// and links them to the correlation row `correlationID`. Returns their UUIDs in order: a
    /// save is answered with each record's UUID followed by those of its samples.
    static func insertCorrelationObjects(_ objects: [SampleRecord], of correlationID: Int64, using inserter: inout SampleInserter,
                                         minting uuidSupply: UUIDSupply, _ db: Database) throws -> [UUID] {
        let link = try db.cachedStatement(sql: "INSERT INTO correlation_members (correlation_id, member_id) VALUES (?, ?)")
        var uuids: [UUID] = []
        for object in objects {
            var quantity: Double?
            var category: Int?
            switch object.value {
            case let .quantity(value, _): quantity = value
            case let .category(value): category = value
            case .correlation, .workout, .workoutRoute, .heartbeatSeries, .electrocardiogram, .stateOfMind, .scoredAssessment, .audiogram, .document,
                 .clinicalRecord, .visionPrescription, .medicationDoseEvent, .userAnnotatedMedication:
                throw StoredValueError(table: "correlation_members")  // CorrelationRules admits quantity and category samples only
            }
            let uuid = uuidSupply.next(startingAt: object.startDate)
            // No sync identity: it belongs to the correlation, not to its samples.
            let memberID = try inserter.insert(object, uuid: uuid, quantity: quantity, category: category, sync: nil, db)
            try link.execute(arguments: [correlationID, memberID])
            uuids.append(uuid)
        }
        return uuids
    }

    /// Runs `spec`, handing correlations (each with all of its samples) to `emit` in batches, in
    /// one read transaction.
    ///
    /// `objectScopes` holds the reader's visibility for every type a correlation of this type may
    /// hold (its read scope, and the workouts its predicates may name: `Visibility`). A
    /// correlation is visible only when it is visible under every one of them: a reader allowed
    /// to read systolic but not diastolic pressure sees its own blood-pressure correlations only —
    /// another app's correlation would reveal that a diastolic sample exists — while it still
    /// sees every systolic sample through sample queries; likewise another app's meal is visible
    /// only to a reader of every dietary type. The rows are confined in SQL by the narrowest of
    /// the scopes (`ReadScope.narrowest`): an index range, so correlations the reader cannot see
    /// are never read (their count cannot show in its latency). A correlation's samples share
    /// its source and start no earlier than it (`CorrelationRules`), so they are visible too;
    /// `everyObjectVisible` checks that on the rows admitted, should a stored one ever break it.
    public func queryCorrelations(_ spec: CorrelationQuerySpec, objectScopes: [String: Visibility],
                                  batching: ResultBatching<SampleRecord> = .rows(500),
                                  emit: ([SampleRecord]) throws -> Void) throws {
        _ = try queryCorrelations(spec, objectScopes: objectScopes, batching: batching, resuming: nil, within: ReadSnapshot()) { batch in
            try emit(batch)
            return true
        }
    }

    /// `queryCorrelations` for a reader whose view may go stale while it streams, as
    /// `queryFetched(_:scope:batchSize:resuming:emit:)`: `emit` returns false when it did not
    /// send the batch, the reading stops and returns where (nil once all was sent), and given
    /// that position again, with the scopes in force now, it goes on after the last correlation
    /// sent, over those the first reading could see (`snapshot`, the answer's `ReadSnapshot`).
    /// Batches are cut by `batching`, each correlation measured with its samples.
    public func queryCorrelations(_ spec: CorrelationQuerySpec, objectScopes: [String: Visibility],
                                  batching: ResultBatching<SampleRecord>,
                                  resuming resume: SampleQueryResume?, within snapshot: ReadSnapshot,
                                  emit: ([SampleRecord]) throws -> Bool) throws -> SampleQueryResume? {
        try writer.read { db in
            let through = try snapshot.confinement(db)
            var position = resume ?? SampleQueryResume()
            guard let limit = position.remainingLimit(spec.limit) else { return nil }
            let terms = SampleSQL.orderTerms(spec.sort, workoutValues: .hidingAll)
            let typeID = try SampleSQL.typeID(db, spec.typeIdentifier)
            var conditions = ["o.type_id = ?"]
            var arguments = StatementArguments()
            for term in terms { arguments += term.arguments }  // the sort keys selected below
            arguments += [typeID]
            // A predicate's side rows too are bounded by the first reading (`Visibility.through`).
            let objectScopes = objectScopes.mapValues { $0.bounded(through: through) }
            let scopes = objectScopes.mapValues(\.scope)
            var predicates: [(sql: String, arguments: StatementArguments)] = []
            if let predicate = spec.predicate {
                predicates.append(try Self.narrowest(objectScopes).map { try SampleSQL.condition(predicate, of: spec.typeIdentifier, within: $0, db) }
                                   ?? (sql: "0", arguments: StatementArguments()))
            }
            for condition in [Self.scopeFilter(scopes), try Self.everyObjectVisible(scopes, db)] + predicates
                + (spec.objectPredicates.isEmpty ? [] : [try Self.anyObjectMatches(spec.objectPredicates, within: objectScopes, db)]) {
                conditions.append("(\(condition.sql))")
                arguments += condition.arguments
            }
            if let through {
                conditions.append("o.change_seq <= ?")
                arguments += [through]
            }
            if resume != nil, let after = position.condition(terms) {
                conditions.append(after.sql)
                arguments += after.arguments
            }
            // `c` names the correlation row a second time: the object-predicate subqueries
            // compile their conditions over `o` (SampleSQL's alias), which there is the sample.
            // Correlations hold no workout values (workout sort keys are refused on them).
            let order = SampleSQL.orderBy(spec.sort, workoutValues: .hidingAll)
            arguments += order.arguments
            let keys = terms.indices.map { ", \(terms[$0].sql) AS resume_key_\($0)" }.joined()
            var sql = """
                SELECT \(SampleRowDecoder.columns)\(keys)
                FROM objects o
                JOIN objects c ON c.id = o.id
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(order.sql)
                """
            if limit > 0 {
                sql += " LIMIT ?"
                arguments += [limit]
            }
            let statement = try db.makeStatement(sql: sql)
            var decoder = SampleRowDecoder(statement, workoutValues: .hidingAll)  // correlations hold no workouts (CorrelationRules)
            let keyColumns = terms.indices.compactMap { statement.index(ofColumn: "resume_key_\($0)") }
            var batch: [SampleRecord] = []
            var bound = BatchBound(maxCount: batching.rows, maxBytes: batching.bytes)
            var held = ResumeKeys()  // where the batch's last correlation stands
            func send() throws -> Bool {
                guard try emit(batch) else { return false }
                position.advance(by: batch.count, lastKeys: held.values, lastID: held.id)
                batch.removeAll(keepingCapacity: true)
                bound.reset()
                return true
            }
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() {
                let id = decoder.objectID(row)
                // With its samples before it is measured: they are most of its size.
                let whole = try Self.withObjects([(id, try decoder.record(row, typeIdentifier: spec.typeIdentifier, db))], db)
                for correlation in whole {
                    let size = batching.measure(correlation)
                    if bound.closesBefore(adding: size) {
                        guard try send() else { return position }
                    }
                    batch.append(correlation)
                    bound.add(size)
                }
                held.read(row, keyColumns, id: id)
                if bound.isFull {
                    guard try send() else { return position }
                }
            }
            if !batch.isEmpty {
                guard try emit(batch) else { return position }
            }
            return nil
        }
    }

    /// What the correlation's own predicate is evaluated within: the narrowest of the member
    /// types' visibilities, for the correlation row and for the workouts it may name.
    private static func narrowest(_ visibilities: [String: Visibility]) -> Visibility? {
        let sorted = visibilities.sorted { $0.key < $1.key }.map(\.value)
        guard let scope = ReadScope.narrowest(sorted.map(\.scope)),
              let workouts = ReadScope.narrowest(sorted.map(\.workouts)),
              let correlations = ReadScope.narrowest(sorted.map(\.correlations)) else { return nil }
        // One reading's visibilities share its bound.
        return Visibility(scope: scope, workouts: workouts, correlations: correlations).bounded(through: sorted.first?.through)
    }

    /// The correlation row is visible under every scope: their narrowest, or nothing.
    private static func scopeFilter(_ scopes: [String: ReadScope]) -> (sql: String, arguments: StatementArguments) {
        guard let narrowest = ReadScope.narrowest(scopes.sorted { $0.key < $1.key }.map(\.value)) else { return ("0", []) }
        return SampleSQL.visibility(narrowest, alias: "o")
    }

    /// No sample of the correlation is hidden from its type's scope. `IS NOT 1` counts an
    /// unknown (NULL) visibility as hidden; a type without a scope is hidden (no branch, or the
    /// -1 of a type never saved, which no sample has).
    private static func everyObjectVisible(_ scopes: [String: ReadScope], _ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        var arguments = StatementArguments()
        let branches = try scopes.sorted { $0.key < $1.key }.map { type, scope in
            let visible = SampleSQL.visibility(scope, alias: "m")
            arguments += [try SampleSQL.typeID(db, type)]
            arguments += visible.arguments
            return "WHEN ? THEN (\(visible.sql))"
        }
        return ("""
            NOT EXISTS (SELECT 1 FROM correlation_members cm
                        JOIN objects m ON m.id = cm.member_id
                        WHERE cm.correlation_id = o.id
                          AND (CASE m.type_id \(branches.joined(separator: " ")) ELSE 0 END) IS NOT 1)
            """, arguments)
    }

    /// At least one sample matches the predicate given for its type.
    /// Each is compiled within its type's visibility, so a member predicate naming a workout the
    /// reader cannot see matches nothing; a type without one (never, after `check`) matches nothing.
    private static func anyObjectMatches(_ predicates: [String: SamplePredicate], within visibilities: [String: Visibility],
                                         _ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        var arguments = StatementArguments()
        let parts = try predicates.sorted { $0.key < $1.key }.map { type, predicate in
            let compiled = try visibilities[type].map { try SampleSQL.condition(predicate, of: type, within: $0, db) } ?? (sql: "0", arguments: StatementArguments())
            arguments += [try SampleSQL.typeID(db, type)]
            arguments += compiled.arguments
            return """
                EXISTS (SELECT 1 FROM correlation_members cm JOIN objects o ON o.id = cm.member_id
                        WHERE cm.correlation_id = c.id
                          AND o.type_id = ? AND (\(compiled.sql)))
                """
        }
        return (parts.joined(separator: " OR "), arguments)
    }

    /// The correlations of `batch` with their samples (every one of them: visibility was
    /// decided for the whole correlation), samples in the order they were saved. Also the change
    /// feed's (`ChangeFeedSQL.wholeCorrelations`).
    static func withObjects(_ batch: [(id: Int64, record: SampleRecord)], _ db: Database) throws -> [SampleRecord] {
        let ids = batch.map(\.id)
        // One correlation at a time (a correlation query measures each) reuses one statement.
        let sql = """
            SELECT cm.correlation_id, t.identifier AS type_identifier, \(SampleRowDecoder.columns)
            FROM correlation_members cm
            JOIN objects o ON o.id = cm.member_id
            JOIN sample_types t ON t.id = o.type_id
            WHERE cm.correlation_id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ",")))
            ORDER BY o.id
            """
        let statement = try ids.count == 1 ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        var decoder = SampleRowDecoder(statement, workoutValues: .hidingAll)  // members are quantity and category samples
        var objects: [Int64: [SampleRecord]] = [:]
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(ids))
        while let row = try rows.next() {
            // Columns 0 and 1: correlation_id and type_identifier, selected before the decoder's.
            let type: String = row[1]
            objects[row[0], default: []].append(try decoder.record(row, typeIdentifier: type, db))
        }
        return batch.map { id, record in
            var correlation = record
            correlation.value = .correlation(objects[id] ?? [])
            return correlation
        }
    }
}
