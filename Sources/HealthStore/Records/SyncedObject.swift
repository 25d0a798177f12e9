import Foundation
import GRDB
import HealthModel

/// A stored object that carries a sync identifier: what a save with the same identifier from the
/// same source is compared against, and replaced through.
struct SyncedObject {
    let rowID: Int64
    let uuid: UUID
    let typeID: Int64
    let sourceID: Int64
    let identifier: String
    let version: Int64

    /// Deletes the object and records it as an `HKDeletedObject` (with its sync identity, so
    /// anchored queries can report what replaced what) under change `change`.
    func replace(_ db: Database, change: Int64) throws {
        try ObjectDeleter.deleteAndRecord(db, rowID: rowID, change: change)
    }
}

/// Finds what one source holds under a sync identifier, and says which key a new object's
/// identifier is stored under: the one rule for both, used by the import's look-ahead
/// (`SampleRepository.importBatch`) and by every write's upsert and insert (`SampleInserter`).
/// Always through `objects_by_source_sync_key` (v36), always comparing the identifier itself:
/// a key only narrows the search.
///
/// Two kinds of key:
/// - `SyncKey.of(identifier)` — every object saved with a sync identifier, but for those below;
/// - `SyncKey.dated(identifier, start)` — an import's *dated* identities
///   (`ImportSamplesRequest.dated_identities`): identifiers healthctl derived from the sample's
///   content, its type and start among it, so that every object holding one has that start. Their
///   keys begin with the start, so a batch's entries land together at the edge of the index
///   instead of on its leaves at random, which every commit rewrote and the checkpoint copied
///   again (issue 16, session 14).
///
/// Only an import's source may hold dated keys (`SourceRecord.isImported`; a mark anywhere else
/// changes nothing), and there a lookup that misses under one kind tries the other: a dated one
/// finds what an import stored before dated keys existed (a store imported by an older version is
/// recognized), and an undated one — an export's own identifier imported back, a route, an older
/// healthctl — finds a dated object by the record's start (an export writes the object's
/// identifier and start, so exporting and importing back into the same store adds nothing). An
/// app's upsert stays one search by `SyncKey.of`.
struct SyncLookup {
    let sourceID: Int64
    /// Whether the source may hold dated keys: an import's.
    let mayHoldDatedKeys: Bool
    private var statement: BoundStatement?

    init(sourceID: Int64, source: SourceRecord) {
        self.sourceID = sourceID
        mayHoldDatedKeys = source.isImported
    }

    /// Whether an identity marked `dated` is keyed by its start: only in a source that may hold
    /// dated keys.
    func isDated(_ dated: Bool) -> Bool { dated && mayHoldDatedKeys }

    /// The key a new object of `record` stores `identifier` under.
    func key(of identifier: String, for record: SampleRecord, dated: Bool) -> Int64 {
        isDated(dated) ? SyncKey.dated(identifier, startMicroseconds: record.startDate.microsecondsSince1970) : SyncKey.of(identifier)
    }

    /// What the source holds under `identifier`, for a record of `record`'s start; `dated`: the
    /// importer marked the identity dated.
    mutating func find(_ identifier: String, of record: SampleRecord, dated: Bool, _ db: Database) throws -> SyncedObject? {
        let first = key(of: identifier, for: record, dated: dated)
        if let found = try find(identifier, key: first, db) { return found }
        guard mayHoldDatedKeys else { return nil }
        let other = key(of: identifier, for: record, dated: !isDated(dated))
        return other == first ? nil : try find(identifier, key: other, db)
    }

    private mutating func find(_ identifier: String, key: Int64, _ db: Database) throws -> SyncedObject? {
        let lookup = try statement ?? BoundStatement(db, sql: """
            SELECT id, uuid, type_id, sync_version FROM objects WHERE source_id = ? AND sync_key = ? AND sync_identifier = ?
            """)
        statement = lookup
        try lookup.bind(sourceID, at: 1)
        try lookup.bind(key, at: 2)
        try lookup.bind(identifier, at: 3)
        // Read straight from SQLite (`readFirstRow`): run once per sample saved or imported with a
        // sync identifier, GRDB's cursor and Row around this one index search were most of its cost.
        return try lookup.readFirstRow { row in
            SyncedObject(rowID: row.int64(0), uuid: try row.uuid(1), typeID: row.int64(2), sourceID: sourceID,
                         identifier: identifier, version: row.int64(3))
        }
    }
}
