public import Foundation
import GRDB
import HealthModel

/// Per-object read grants (`object_read_grants`, migration v27): which objects of a type read
/// per object (`PerObjectAuthorization`: vision prescriptions) the user let an app read. The
/// manager's answer to a per-object request writes here; `SampleSQL.visibility` reads it through
/// `ReadScope.ownAndGrantedObjects` and nothing else decides what such a grant shows. Rows go with
/// their app (removal) and their object (deletion) by ON DELETE CASCADE; a deletion first copies
/// them to `deleted_object_read_grants` (`ObjectDeleter`), so the apps that could read the object
/// are told it was deleted. A revoked grant leaves nothing behind: the object is, to that app, as
/// if it had never been stored (DESIGN.md §7.3) — no deletion is reported, now or later, whether
/// the object is deleted after the revocation or was deleted before it (the revocation then takes
/// the grant its tombstone kept). The same holds for a later answer that no longer allows it.
///
/// Every decision is also kept in `object_read_offers` (v48), allowed or not, so the per-document
/// types (`PerObjectAuthorization.offeredTypes`, CDA) offer each document once; a revocation
/// removes it with the grant.
///
/// Only the open store is written: the broker calls this through `StoreHandle.withDatabase`, so
/// while the store is locked a per-object request or answer fails with errorDatabaseInaccessible
/// (the candidates to show cannot be read then either) and nothing needs journaling.
public struct ObjectGrantRepository: Sendable {
    let writer: any DatabaseWriter

    /// Sets the grants of the app `installation` names for `decided` objects (of a per-object
    /// type): those in `allowed` granted, the others removed, in one transaction. Objects that no
    /// longer exist or are not of a per-object type are skipped (a deletion may race the answer).
    /// Returns how many objects the app may now read of the decided ones.
    ///
    /// The answer is bound to the installation that asked: if the app was removed since (and
    /// perhaps installed again under the same id), nothing is written — checked in the same
    /// transaction as the writes, so no removal and reinstall can slip in between.
    @discardableResult
    public func decide(for installation: AppInstallation, decided: [UUID], allowed: Set<UUID>, at date: Date) async throws -> Int {
        try await answer(for: installation, decided: decided, allowed: allowed, at: date).granted
    }

    /// What an answer did: how many of the decided objects the app may now read, and whether any
    /// grant was added or removed (a live object's or a tombstone's).
    public struct Answer: Sendable, Equatable {
        public let granted: Int
        public let changedGrants: Bool
    }

    /// `decide`, telling also whether the app's grants changed. Only then does the app's grants
    /// mark move (`VisibilityEpoch`), once the answer is committed: an answer that grants and
    /// removes nothing — the user refusing a document offer, allowing what the app already held —
    /// leaves the app's answers in flight as they are. Moving it anyway read every one of them
    /// again, and only in a store where other apps held documents the app had not been offered
    /// and its document read was authorized (where the offer was listed at all): its read decision
    /// and others' documents in the reader's timing (privacy review, session 19, finding 3). After
    /// the commit is enough: a stream's mark is taken before its reading, so one that read the
    /// grants as they were before sees the mark moved.
    public func answer(for installation: AppInstallation, decided: [UUID], allowed: Set<UUID>, at date: Date) async throws -> Answer {
        let appID = installation.appID
        let answer = try await writer.write { db in
            guard try AppRepository.installation(db, id: appID) == installation else {
                throw HKError(.errorInvalidArgument, "\(appID.prefix(128)) was removed since it asked to read these objects; "
                              + "nothing was granted — the app must ask again")
            }
            var granted = 0
            var changed = 0
            // A new grant takes a change number of its own, one for the whole answer: the granted
            // objects' position in this app's change feed (`SampleSQL.grantedFeedRows`), so its
            // anchored queries deliver them and its observers of the type fire. A grant the app
            // already held keeps its number (the object was delivered already).
            var grantChange: Int64?
            for uuid in decided {
                guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT o.id, t.identifier FROM objects o JOIN sample_types t ON t.id = o.type_id WHERE o.uuid = ?
                    """), arguments: [uuid]),
                    let type = row["identifier"] as String?, PerObjectAuthorization.grantsObjects(type) else {
                    // Deleted since it was offered (or never stored): an answer not allowing it
                    // still takes the grant its tombstone may keep, as for a live object.
                    if !allowed.contains(uuid) { changed += try Self.forgetDeletion(db, appID: appID, uuid: uuid) }
                    continue
                }
                let objectID: Int64 = row["id"]
                // Decided: a document query offers it no more, whatever the answer (v48).
                try db.execute(sql: "INSERT OR IGNORE INTO object_read_offers (app_id, object_id) VALUES (?, ?)",
                               arguments: [appID, objectID])
                if allowed.contains(uuid) {
                    try db.execute(sql: "UPDATE object_read_grants SET decided_us = ? WHERE app_id = ? AND object_id = ?",
                                   arguments: [date.microsecondsSince1970, appID, objectID])
                    if db.changesCount == 0 {
                        let change = try grantChange ?? ObjectDeleter.nextChange(db)
                        grantChange = change
                        try db.execute(sql: "INSERT INTO object_read_grants (app_id, object_id, decided_us, change_seq) VALUES (?, ?, ?, ?)",
                                       arguments: [appID, objectID, date.microsecondsSince1970, change])
                        changed += 1
                    }
                    granted += 1
                } else {
                    try db.execute(sql: "DELETE FROM object_read_grants WHERE app_id = ? AND object_id = ?", arguments: [appID, objectID])
                    changed += db.changesCount
                    // A medication no longer allowed takes its deleted doses' kept grants along.
                    changed += try Self.forgetDeletion(db, appID: appID, uuid: uuid)
                }
            }
            return Answer(granted: granted, changedGrants: changed > 0)
        }
        if answer.changedGrants { VisibilityEpoch.shared.grantsChanged(appID: appID) }
        return answer
    }

    /// Removes `appID`'s grants for `uuids`, or all of them when nil — of live objects, and the
    /// grants kept with the tombstones of granted objects deleted since, so the app is not told
    /// of a deletion once it may no longer read the object. Returns how many went, of both kinds.
    @discardableResult
    /// The app's grants mark moves once the removal is committed, and only if a grant went
    /// (`answer(for:…)` says why).
    public func revoke(appID: String, uuids: [UUID]?) async throws -> Int {
        let removed = try await writer.write { db in
            guard let uuids else {
                // Undecided again: a revoked document is offered at the app's next document query.
                try db.execute(sql: "DELETE FROM object_read_offers WHERE app_id = ?", arguments: [appID])
                try db.execute(sql: "DELETE FROM object_read_grants WHERE app_id = ?", arguments: [appID])
                let live = db.changesCount
                try db.execute(sql: "DELETE FROM deleted_object_read_grants WHERE app_id = ?", arguments: [appID])
                return live + db.changesCount
            }
            var removed = 0
            for uuid in uuids {
                try db.execute(sql: """
                    DELETE FROM object_read_offers WHERE app_id = ? AND object_id = (SELECT id FROM objects WHERE uuid = ?)
                    """, arguments: [appID, uuid])
                try db.execute(sql: """
                    DELETE FROM object_read_grants WHERE app_id = ? AND object_id = (SELECT id FROM objects WHERE uuid = ?)
                    """, arguments: [appID, uuid])
                removed += db.changesCount
                removed += try Self.forgetDeletion(db, appID: appID, uuid: uuid)
            }
            return removed
        }
        if removed > 0 { VisibilityEpoch.shared.grantsChanged(appID: appID) }
        return removed
    }

    /// Drops the grant `appID` held for the deleted object `uuid`, kept with its tombstone
    /// (`ObjectDeleter`), and those of the deleted dose events it read through `uuid` (a
    /// medication): their deletions are then reported to the app no more. Returns how many went.
    /// Lookups by the table's key (app, uuid) and within the app's rows.
    @discardableResult
    private static func forgetDeletion(_ db: Database, appID: String, uuid: UUID) throws -> Int {
        try db.execute(sql: "DELETE FROM deleted_object_read_grants WHERE app_id = ? AND uuid = ?", arguments: [appID, uuid])
        var forgotten = db.changesCount
        // The deleted dose events read through this medication's grant (v38).
        try db.execute(sql: "DELETE FROM deleted_object_read_grants WHERE app_id = ? AND through_uuid = ?", arguments: [appID, uuid])
        forgotten += db.changesCount
        return forgotten
    }

    /// The live objects of `typeIdentifier` the user decided on for `appID` (allowed or not),
    /// which a document query does not offer again. Read by the table's key, within the app's
    /// rows; the type bound by its row id (`SampleSQL.typeID`, the store's read rule).
    public func decided(appID: String, typeIdentifier: String) async throws -> Set<UUID> {
        try await writer.read { db in
            Set(try UUID.fetchAll(db, sql: """
                SELECT o.uuid FROM object_read_offers f JOIN objects o ON o.id = f.object_id
                WHERE f.app_id = ? AND o.type_id = ?
                """, arguments: [appID, try SampleSQL.typeID(db, typeIdentifier)]))
        }
    }

    /// The objects `appID` was granted, oldest grant first (for the manager's listing).
    public func granted(appID: String) async throws -> [UUID] {
        try await writer.read { db in
            try UUID.fetchAll(db, sql: """
                SELECT o.uuid FROM object_read_grants g JOIN objects o ON o.id = g.object_id
                WHERE g.app_id = ? ORDER BY g.decided_us, o.id
                """, arguments: [appID])
        }
    }
}

extension HealthDatabase {
    /// The per-object read grants over this database.
    public var objectGrants: ObjectGrantRepository { ObjectGrantRepository(writer: writer) }
}
