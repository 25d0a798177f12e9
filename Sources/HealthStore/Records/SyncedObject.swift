import Foundation
import GRDB

/// A stored object that carries a sync identifier: what a save with the same identifier from the
/// same source is compared against, and replaced through.
struct SyncedObject {
    let rowID: Int64
    let uuid: UUID
    let typeID: Int64
    let sourceID: Int64
    let identifier: String
    let version: Int64

    /// The object `source` stored under `identifier`, if any (the single insert path stores at
    /// most one: `SyncKey`).
    static func find(_ db: Database, source: Int64, identifier: String) throws -> SyncedObject? {
        try find(using: lookup(db), source: source, identifier: identifier)
    }

    /// The lookup `find(using:…)` runs; a write making many lookups keeps one
    /// (`SampleInserter`). Found through the compact key (`objects_by_source_sync_key`, v36),
    /// confirmed by the identifier itself: a key names an identifier only almost surely.
    static func lookup(_ db: Database) throws -> BoundStatement {
        try BoundStatement(db, sql: """
            SELECT id, uuid, type_id, sync_version FROM objects WHERE source_id = ? AND sync_key = ? AND sync_identifier = ?
            """)
    }

    static func find(using lookup: BoundStatement, source: Int64, identifier: String) throws -> SyncedObject? {
        try lookup.bind(source, at: 1)
        try lookup.bind(SyncKey.of(identifier), at: 2)
        try lookup.bind(identifier, at: 3)
        // Read straight from SQLite (`readFirstRow`): run once per sample saved or imported with a
        // sync identifier, GRDB's cursor and Row around this one index search were most of its cost.
        return try lookup.readFirstRow { row in
            SyncedObject(rowID: row.int64(0), uuid: try row.uuid(1), typeID: row.int64(2), sourceID: source,
                         identifier: identifier, version: row.int64(3))
        }
    }

    /// Deletes the object and records it as an `HKDeletedObject` (with its sync identity, so
    /// anchored queries can report what replaced what) under change `change`.
    func replace(_ db: Database, change: Int64) throws {
        try ObjectDeleter.deleteAndRecord(db, rowID: rowID, change: change)
    }
}
