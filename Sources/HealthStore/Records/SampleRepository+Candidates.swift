public import Foundation
import GRDB
import GRDBSQLite
public import HealthModel

/// What one per-object candidate read found and what it cost: the candidates as summaries, and
/// the store work counted at the read itself.
public struct CandidateSummaries: Sendable {
    /// Newest first: UUID, type, dates, source and — for the types whose prompt shows it — value.
    public var records: [SampleRecord] = []
    /// `objects` rows read.
    public var rows = 0
    /// Bytes of database pages the read touched (SQLite's page lookups on its connection, hits and
    /// misses, times the page size): what the read cost the store, whatever the rows held.
    public var bytes = 0
}

extension SampleRepository {
    /// The objects of `typeIdentifier` matching `predicate` (compiled within `Visibility.allSources`:
    /// the user's view), newest first, at most `limit` — undecided ones only when `undecidedFor`
    /// names an app (`object_read_offers`, by its key). What a per-object prompt shows of each,
    /// read from bounded columns only: the UUID, dates and source of `objects`, and the value for
    /// vision prescriptions and medications (their side rows, bounded by their validators). Never
    /// a document's bytes, the metadata or the device the saving app chose, which could make each
    /// candidate ~1 MiB or ~290 KB: `objects.metadata` is stored after every column read here,
    /// so its overflow pages are not even visited.
    public func candidateSummaries(typeIdentifier: String, predicate: SamplePredicate?, undecidedFor appID: String?,
                                   limit: Int) throws -> CandidateSummaries {
        try writer.read { db in
            let handle = db.sqliteConnection
            PageLookups.reset(handle)
            var conditions = ["o.type_id = ?"]
            var arguments: StatementArguments = [try SampleSQL.typeID(db, typeIdentifier)]
            if let predicate {
                let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: .allSources, db)
                conditions.append("(\(compiled.sql))")
                arguments += compiled.arguments
            }
            if let appID {
                conditions.append("NOT EXISTS (SELECT 1 FROM object_read_offers f WHERE f.app_id = ? AND f.object_id = o.id)")
                arguments += [appID]
            }
            let order = SampleSQL.orderBy([SampleSort(.startDate, ascending: false)], workoutValues: Visibility.allSources.workoutValues)
            arguments += order.arguments
            arguments += [limit]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT o.id, o.uuid, o.start_us, o.end_us, o.quantity, o.category, o.source_id
                FROM objects o WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order.sql) LIMIT ?
                """, arguments: arguments)
            var found = CandidateSummaries()
            var sources: [Int64: SourceRecord] = [:]
            let unit = (HKObjectType.type(forIdentifier: typeIdentifier) as? HKQuantityType)?.canonicalUnit.unitString ?? ""
            while let row = try rows.next() {
                found.rows += 1
                let objectID: Int64 = row["id"]
                let sourceID: Int64 = row["source_id"]
                guard let bytes = row["uuid"] as Data?, bytes.count == 16 else { throw StoreIntegrityError.malformedUUID }
                let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                let source = try sources[sourceID] ?? Self.sourceIdentity(sourceID, db)
                sources[sourceID] = source
                found.records.append(SampleRecord(
                    uuid: uuid, typeIdentifier: typeIdentifier,
                    startDate: Date(microsecondsSince1970: row["start_us"]), endDate: Date(microsecondsSince1970: row["end_us"]),
                    value: try Self.candidateValue(objectID: objectID, typeIdentifier: typeIdentifier, row: row, unit: unit, db),
                    source: source))
            }
            found.bytes = PageLookups.count(handle) * (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096)
            return found
        }
    }

    /// What a prompt shows as the candidate's value: a document by its dates and source alone (its
    /// header fields are the manager's to read, by UUID), a prescription or medication from its
    /// side rows, anything else from its `objects` columns.
    private static func candidateValue(objectID: Int64, typeIdentifier: String, row: Row, unit: String,
                                       _ db: Database) throws -> SampleRecord.Value {
        if DocumentRows.holdsValue(of: typeIdentifier) { return .document(DocumentValue(data: Data())) }
        if let value = try VisionPrescriptionRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db)
            ?? MedicationRows.value(objectID: objectID, typeIdentifier: typeIdentifier, db) {
            return value
        }
        if let quantity = row["quantity"] as Double? { return .quantity(quantity, unit: unit) }
        return .category(row["category"] as Int? ?? 0)
    }

    private static func sourceIdentity(_ id: Int64, _ db: Database) throws -> SourceRecord {
        guard let stored = try Row.fetchOne(db.cachedStatement(sql: "SELECT bundle_identifier, name FROM sources WHERE id = ?"),
                                            arguments: [id]) else {
            throw StoreIntegrityError.missingSourceRow
        }
        return SourceRecord(bundleIdentifier: stored[0], name: stored[1])
    }
}

/// SQLite's count of page lookups on one connection (`SQLITE_DBSTATUS_CACHE_HIT` + `_MISS`): every
/// page a statement visits, from the cache or the file. Reset before a read, read after it, on the
/// connection the read holds alone.
enum PageLookups {
    static func reset(_ handle: OpaquePointer?) {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_HIT, &current, &highest, 1)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 1)
    }

    static func count(_ handle: OpaquePointer?) -> Int {
        var hits: Int32 = 0, misses: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_HIT, &hits, &highest, 0)
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &misses, &highest, 0)
        return Int(hits) + Int(misses)
    }
}

extension SampleRepository {
    /// Throws what `candidateSummaries` would for `predicate` over `typeIdentifier` (a unit the
    /// type is not measured in, a type that holds no samples), without reading the store.
    public static func checkCandidatePredicate(_ predicate: SamplePredicate?, of typeIdentifier: String) throws {
        guard let predicate else { return }
        _ = try SampleSQL.canonical(predicate, of: typeIdentifier)
    }
}
