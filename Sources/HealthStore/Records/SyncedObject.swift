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
/// changes nothing), and there a lookup that misses under one kind may try the other: a dated one
/// finds what an import stored before dated keys existed (a store imported by an older version is
/// recognized), and an undated one — an export's own identifier imported back, a route, an older
/// healthctl — finds a dated object by the record's start (an export writes the object's
/// identifier and start, so exporting and importing back into the same store adds nothing). An
/// app's upsert stays one search by `SyncKey.of`.
///
/// An import's source searches only under the kinds of key it holds (`SyncKeyKinds`, v58): a
/// first import searches nothing, a re-import once per sample. Searching both kinds for every
/// sample was two index descents per new sample, the second on a random leaf (issue 16).
struct SyncLookup {
    let sourceID: Int64
    /// Whether the source may hold dated keys: an import's.
    let mayHoldDatedKeys: Bool
    /// The kinds of key the source holds: for an import's source as recorded (`SyncKeyKinds`),
    /// noted as this write stores new ones; for any other source plain keys only.
    private var kinds: SyncKeyKinds
    private var statement: BoundStatement?

    init(sourceID: Int64, source: SourceRecord, _ db: Database) throws {
        self.sourceID = sourceID
        mayHoldDatedKeys = source.isImported
        kinds = mayHoldDatedKeys ? try SyncKeyKinds.read(sourceID: sourceID, db) : SyncKeyKinds(dated: false, undated: true)
    }

    /// Whether an identity marked `dated` is keyed by its start: only in a source that may hold
    /// dated keys.
    func isDated(_ dated: Bool) -> Bool { dated && mayHoldDatedKeys }

    /// The key `identifier` of `record` is stored and searched under.
    func key(of identifier: String, for record: SampleRecord, dated: Bool) -> Int64 {
        isDated(dated) ? SyncKey.dated(identifier, startMicroseconds: record.startDate.microsecondsSince1970) : SyncKey.of(identifier)
    }

    /// The key a new object of `record` stores `identifier` under, noting its kind for the source
    /// (in this write's transaction) the first time the source stores one of that kind: the one
    /// place a key is chosen for storing (`SampleInserter`), so the kinds never miss one.
    mutating func keyForStoring(_ identifier: String, for record: SampleRecord, dated: Bool, _ db: Database) throws -> Int64 {
        let keyIsDated = isDated(dated)
        if mayHoldDatedKeys, !kinds.holds(dated: keyIsDated) {
            kinds.note(dated: keyIsDated)
            try kinds.write(sourceID: sourceID, db)
        }
        return key(of: identifier, for: record, dated: dated)
    }

    /// What the source holds under `identifier`, for a record of `record`'s start; `dated`: the
    /// importer marked the identity dated. Searched first under the record's own kind of key,
    /// then the other, each only if the source holds keys of that kind.
    mutating func find(_ identifier: String, of record: SampleRecord, dated: Bool, _ db: Database) throws -> SyncedObject? {
        let first = key(of: identifier, for: record, dated: dated)
        if kinds.holds(dated: isDated(dated)), let found = try find(identifier, key: first, db) { return found }
        guard mayHoldDatedKeys, kinds.holds(dated: !isDated(dated)) else { return nil }
        let other = key(of: identifier, for: record, dated: !isDated(dated))
        // Equal keys (one chance in 2^32): the first search, if it ran, has looked there already.
        if other == first, kinds.holds(dated: isDated(dated)) { return nil }
        return try find(identifier, key: other, db)
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
