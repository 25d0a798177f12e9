import Foundation
import HealthModel
import HealthStore

/// The writes that go on while the store is locked: they land in the pending journal instead of
/// the database, durable before the caller is answered, and are merged at unlock in order.
extension StoreHandle {
    /// Saves validated, canonical `records` under `source` (the one call of the save path):
    /// committed now when the store is open; while locked, sealed into the pending journal with
    /// the UUIDs the app is answered with, which the merge gives the objects.
    ///
    /// A difference from an unlocked save: a record whose sync identifier the store already holds
    /// at the same or a higher version is answered with a fresh UUID (the store's object cannot
    /// be looked up while locked); the merge keeps the stored object, as an unlocked save would.
    ///
    /// `accessLog`, the call's entry, commits in the save's own transaction when the store is open
    /// (`entryCommitted`); while locked it is not written here, and the dispatcher journals it
    /// after the save like any other call's.
    func save(_ records: [SampleRecord], source: SourceRecord,
              accessLog: AccessLogEntryDraft? = nil) async throws -> (uuids: [UUID], entryCommitted: Bool) {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                return (try await database.samples.insert(records, source: source, accessLog: accessLog), accessLog != nil)
            case let .locked(locked):
                let count = records.reduce(0) { $0 + $1.mintedUUIDCount }
                let uuids = (0 ..< count).map { _ in UUIDv7.make() }
                let entry = try PendingEntryCoding.encode(.save(records: records, source: source, uuids: uuids))
                _ = try await BlockingWork.run { try locked.journal.append(entry) }
                return (uuids, false)
            }
        }
    }

    /// Deletes `appID`'s objects named by `references` (DeletionService, after the share check):
    /// now when the store is open; while locked, into the pending journal. The locked answer is
    /// the number of distinct objects named — whether they exist and are the app's own is known
    /// only at merge, where a deletion that would have failed deletes nothing (a difference from
    /// an unlocked deletion, which fails with errorInvalidArgument).
    /// `accessLog` as for `save`.
    func delete(_ references: [ObjectReference], appID: String,
                accessLog: AccessLogEntryDraft? = nil) async throws -> (count: Int, entryCommitted: Bool) {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                return (try await database.samples.delete(references, appID: appID, accessLog: accessLog), accessLog != nil)
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(.delete(references: references, appID: appID))
                _ = try await BlockingWork.run { try locked.journal.append(entry) }
                return (Set(references).count, false)
            }
        }
    }

    /// Applies the user's grant decisions for `appID` (the manager's answer or edit): to the store
    /// when open; while locked, into the pending journal first (durable, so a revocation survives
    /// a crash before unlock) and then to the in-memory copy that answers meanwhile.
    func applyGrants(appID: String, _ decisions: [GrantDecision]) async throws {
        try await withCurrentStore { access in
            switch access {
            case let .open(database):
                try database.grants.apply(appID: appID, decisions)
            case let .locked(locked):
                let now = Date()
                let entry = try PendingEntryCoding.encode(.grants(appID: appID, decisions: decisions, at: now))
                _ = try await BlockingWork.run { try locked.journal.append(entry) }
                try locked.grants.grants.apply(appID: appID, decisions, at: now)
            }
        }
    }

    /// Appends an access-log entry: to the log when the store is open; while locked, to the
    /// pending journal, which the merge appends to the log with the time of the call.
    func recordAccess(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                      detail: String) async throws {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                // Group-committed: entries of calls that end together share one commit and fsync.
                try await database.accessLog.appendGrouped(
                    AccessLogEntryDraft(actor: actor, appID: appID, action: action, types: types, detail: detail), count: count)
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(.accessLog(actor: actor, appID: appID, action: action, types: types,
                                                                     count: count, detail: detail, at: Date()))
                _ = try await BlockingWork.run { try locked.journal.append(entry) }
            }
        }
    }
}
