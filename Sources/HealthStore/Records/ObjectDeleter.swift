import Foundation
import GRDB
import HealthModel

/// The one path by which a stored object leaves the store, whatever the reason (`delete`,
/// `deleteObjects`, a sync-identifier upsert replacing it, a workout taking its route along):
/// the object's row goes, its side rows go with it (ON DELETE CASCADE) — its workout effort
/// relations leaving a removal each (`WorkoutEffortChanges`), its app given back what it was
/// charged (`StorageUse`) — and a `deleted_objects` row records it — UUID, type, source, sync identity and time span — for anchored queries,
/// with the apps that held a per-object read grant for it (`deleted_object_read_grants`).
enum ObjectDeleter {
    /// Deletes the object with row id `rowID` under change `change` and returns its UUID, or nil
    /// if there is no such row. Deleting a workout deletes its routes first (HealthKit deletes a
    /// route with its workout); samples merely associated with it stay, losing the association.
    /// Deleting a correlation deletes the samples it holds, each recorded as deleted under its own
    /// type: they were saved as its content (one save, no sync identity of their own), and a
    /// blood-pressure reading deleted must not leave its two values behind in every systolic and
    /// diastolic query — nor a replaced one (a sync-identifier upsert) its old values.
    @discardableResult
    static func deleteAndRecord(_ db: Database, rowID: Int64, change: Int64) throws -> UUID? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT uuid, type_id, source_id, sync_identifier, sync_version, start_us, end_us,
                   coalesce(charged, \(StoredSize.legacyObjectSQL)) AS charged
            FROM objects o WHERE id = ?
            """), arguments: [rowID]) else { return nil }
        for routeID in try routes(ofWorkout: rowID, db) {
            try deleteAndRecord(db, rowID: routeID, change: change)
        }
        for memberID in try members(ofCorrelation: rowID, db) {
            try deleteAndRecord(db, rowID: memberID, change: change)
        }
        let uuid: UUID = row["uuid"]
        // Streams that read this object before it went read again (`VisibilityEpoch`).
        VisibilityEpoch.shared.objectLeaving(db)
        try db.cachedStatement(sql: """
            INSERT INTO deleted_objects (uuid, type_id, source_id, sync_identifier, sync_version, change_seq, start_us, end_us)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [uuid, row["type_id"] as Int64, row["source_id"] as Int64, row["sync_identifier"] as String?,
                             row["sync_version"] as Int64?, change, row["start_us"] as Int64, row["end_us"] as Int64])
        // The apps the user let read this object — granted it, or, for a dose event, granted its
        // medication (`SampleSQL.appsGrantedObjectRow`, the visibility rule's inverse) — keep that
        // fact with its tombstone, so the deletion is reported to them (and to nobody else who
        // could not see the object); the grants and side rows go with the object below (ON
        // DELETE CASCADE), so this runs first.
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO deleted_object_read_grants (app_id, uuid, through_uuid)
            SELECT granted.app_id, ?, granted.through_uuid FROM (\(SampleSQL.appsGrantedObjectRow)) granted
            """).execute(arguments: [uuid, rowID, rowID])
        // A related effort sample leaves its relations as removals (HKWorkoutEffortRelationshipQuery's anchor).
        try WorkoutEffortChanges.objectLeaving(rowID, change: change, db)
        // A workout leaves its relations (and the removals it kept) as departed ones (v39).
        try WorkoutEffortChanges.workoutLeaving(rowID, change: change, db)
        // Cached: preparing this statement compiles every foreign key's cascade into it, which
        // per deleted row cost more than the deletion itself (a large `deleteMatching`).
        try db.cachedStatement(sql: "DELETE FROM objects WHERE id = ?").execute(arguments: [rowID])
        // Its app gets back what the object was charged, less the tombstone that stays
        // (`StorageUse`; the user's and imported objects were charged to nobody).
        let syncIdentifier: String? = row["sync_identifier"]
        try StorageUse.writing(db)?.giveBack(row["charged"] - StoredSize.tombstone(syncIdentifier: syncIdentifier),
                                             sourceID: row["source_id"], db)
        return uuid
    }

    /// The change counter's update, found without GRDB's look-up by SQL text (`StatementSlot`).
    private static let bumpChangeSlot = StatementSlot("UPDATE counters SET value = value + 1 WHERE name = 'change'")

    /// The next value of the change counter: one per committed write, shared by all its changes.
    static func nextChange(_ db: Database) throws -> Int64 {
        // Once per save, so stepped in SQLite directly, and not as one `UPDATE … RETURNING`: SQLite
        // gathers returned rows in a temporary b-tree, which cost more than the update itself
        // (issue 17, Benchmarks/README.md "Session 20"). The new value is the one the commit
        // watcher's capture noted from this very UPDATE (one counter write more than before it);
        // read back with a SELECT only where no capture watches the counter on this connection
        // (issue 17, "Session 23").
        let before = ChangeCapture.counterWrites(db)
        try BoundStatement(db, bumpChangeSlot).stepDirectly(db)
        guard db.changesCount == 1 else { throw StoreIntegrityError.missingChangeCounter }
        if let before, let after = ChangeCapture.counterWrites(db), after.writes == before.writes + 1 {
            return after.value
        }
        let read = try BoundStatement(db, sql: "SELECT value FROM counters WHERE name = 'change'")
        guard let change = try read.readFirstRow({ $0.int64(0) }) else { throw StoreIntegrityError.missingChangeCounter }
        return change
    }

    /// The samples the correlation `rowID` holds (none unless it is a correlation), by the
    /// correlation's primary key. Only samples of the correlation's own source: a correlation's
    /// samples always share it (`CorrelationRules`), and should a stored row ever break that, a
    /// deletion still never reaches another source's object.
    static func members(ofCorrelation rowID: Int64, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT cm.member_id FROM correlation_members cm
            JOIN objects c ON c.id = cm.correlation_id
            JOIN objects m ON m.id = cm.member_id
            WHERE cm.correlation_id = ? AND m.source_id = c.source_id
            """), arguments: [rowID])
    }

    /// The route objects associated with the object `rowID` (none unless it is a workout).
    private static func routes(ofWorkout rowID: Int64, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT a.sample_id FROM workout_associations a
            JOIN objects r ON r.id = a.sample_id
            WHERE a.workout_id = ? AND r.type_id = ?
            """), arguments: [rowID, try SampleSQL.typeID(db, HKWorkoutRouteTypeIdentifier)])
    }
}
