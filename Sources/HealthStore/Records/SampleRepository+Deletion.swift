public import Foundation
import GRDB
public import HealthModel

/// `delete(_:)` and `deleteObjects(of:predicate:)`: an app deletes only objects it saved. Every
/// deleted object goes through `ObjectDeleter`, which records it in `deleted_objects`. A
/// correlation goes with its samples, and needs share permission for the types it holds,
/// checked in the same transaction (`OwnCorrelationShares`); other types' share permission is
/// the broker's check before the call.
extension SampleRepository {
    /// Deletes `appID`'s objects named by `references`, durably, all or none, and returns how many
    /// were deleted. A reference to another app's object, to an object of another type, or to a
    /// UUID that does not exist (or no longer does) fails the whole call alike, with
    /// HealthKit's `errorInvalidArgument` "failed to find some objects for deletion".
    /// `accessLog`: the call's entry, written in the same savepoint with the count (see `insert`).
    public func delete(_ references: [ObjectReference], appID: String, accessLog: AccessLogEntryDraft? = nil) async throws -> Int {
        try await commits.submit(returning: { db in
            let deleted = try Self.deleteOwned(references, appID: appID, db)
            if let accessLog { try AccessLogRepository.write(accessLog, count: deleted, db) }
            return deleted
        })
    }

    /// `delete(_:appID:)` inside the caller's transaction (also the pending journal's merge of a
    /// deletion made while locked).
    static func deleteOwned(_ references: [ObjectReference], appID: String, _ db: Database) throws -> Int {
        var seen = Set<ObjectReference>()
        let unique = references.filter { seen.insert($0).inserted }
        let rowIDs = try unique.map { reference in
            guard let rowID = try OwnedObjects.rowID(db, uuid: reference.uuid, typeIdentifier: reference.typeIdentifier,
                                                     appID: appID) else {
                throw HKError(.errorInvalidArgument,
                              "failed to find some objects for deletion: no \(reference.typeIdentifier.prefix(100)) saved by this app has the given UUID")
            }
            return rowID
        }
        let correlations = zip(unique, rowIDs).filter { Self.isCorrelation($0.0.typeIdentifier) }.map(\.1)
        try OwnCorrelationShares.check(correlations, appID: appID, db)
        return try deleteRows(rowIDs, db)
    }

    /// Whether `typeIdentifier` names a correlation type: its objects hold samples, whose types'
    /// share grants a deletion needs (`OwnCorrelationShares`).
    static func isCorrelation(_ typeIdentifier: String) -> Bool {
        !CorrelationRules.memberTypes(of: typeIdentifier).isEmpty
    }

    /// Deletes every object of `typeIdentifier` that `appID` saved and `predicate` matches
    /// (nil: all of them), durably, and returns how many. Other apps' objects are never matched,
    /// whatever the app's read permission. Routes deleted along with their workouts are not
    /// counted: the count is of objects the predicate matched. A workout the predicate names is
    /// looked up within `workouts`, the app's read scope for workouts: the count must not tell
    /// which of its own samples another app associated with a workout it cannot see. The app's
    /// own samples sit only in its own correlations, which every scope admits.
    ///
    /// The objects go in commits of at most `deletionChunk` each, every one submitted to the
    /// group-commit queue only after the previous one committed, so other apps' saves queued
    /// meanwhile commit between them: one app deleting the millions of samples it saved holds the
    /// store's only writer for one chunk at a time, not for the whole deletion (SECURITY.md, "One
    /// write holds the store's only writer"). The app's predicate is never evaluated inside the
    /// write transaction: each chunk's rows are selected on a reader (where the call's
    /// `StatementBudget` bounds what the predicate may cost), and the writer deletes those rows
    /// that are still the app's own, of the type, committed by the first chunk — a check by row
    /// id, which costs the same whatever the predicate. Only objects committed before the call's
    /// first chunk are matched (`change_seq` at most the store's change number then), so a save
    /// of the app's own racing the deletion is not swept up by a later chunk. Each chunk is
    /// durable with its own change number and its own access-log entry (`accessLog` with that
    /// chunk's count), so a deletion that fails or is cut short midway leaves whole chunks deleted
    /// and recorded, never half an object. A correlation type's share check covers every matched
    /// correlation in the first chunk, so a refusal deletes nothing.
    ///
    /// `stopRequested` is asked before each chunk: true ends the deletion there, throwing
    /// `DeletionCutShort` with the count deleted so far (a lock or key change draining the store
    /// does not wait for the rest). `offPool` runs each chunk's selection — a blocking read that
    /// may take the whole statement budget — where it blocks no thread others need (the broker's
    /// `BlockingWork`, which carries the call's budget along); it must run it on the calling
    /// task's thread or one given the budget, never a GRDB queue of its own.
    public func deleteMatching(typeIdentifier: String, predicate: SamplePredicate?, appID: String,
                               workouts: ReadScope, accessLog: AccessLogEntryDraft? = nil,
                               stopRequested: @Sendable () -> Bool = { false },
                               offPool: (@escaping @Sendable () throws -> SelectedChunk) async throws -> SelectedChunk = { try $0() })
    async throws -> Int {
        var chunk = DeletionChunk.first
        var total = 0
        let writer = writer
        while true {
            if stopRequested() { throw DeletionCutShort(deleted: total) }
            let selected: SelectedChunk
            let current = chunk
            do {
                selected = try await offPool {
                    // The synchronous read: on this thread, where the call's budget is.
                    try writer.read { db in
                        try Self.selectMatchingChunk(typeIdentifier: typeIdentifier, predicate: predicate, appID: appID,
                                                     workouts: workouts, chunk: current.resolved(db), db)
                    }
                }
            } catch where stopRequested() {
                // The drain stopped the chunk's reading (StatementBudget): as between two chunks.
                throw DeletionCutShort(deleted: total)
            }
            let deleted = try await commits.submit(returning: { db -> Int in
                if let correlations = selected.correlations { try OwnCorrelationShares.check(correlations, appID: appID, db) }
                let rowIDs = try Self.stillOwned(selected.rowIDs, typeIdentifier: typeIdentifier, appID: appID,
                                                 through: selected.through, db)
                let deleted = try Self.deleteRows(rowIDs, db)
                if let accessLog, deleted > 0 || selected.isFirst { try AccessLogRepository.write(accessLog, count: deleted, db) }
                return deleted
            })
            total += deleted
            guard let next = selected.next else { return total }
            chunk = next
        }
    }

    /// How many objects one commit of `deleteMatching` deletes at most: a few tens of
    /// milliseconds of the writer, about what a large save holds it for.
    static let deletionChunk = 2_000

    /// `deleteMatching` inside the caller's transaction, all at once: the pending journal's merge
    /// of a deletion made while locked, resolved against the store as it is at merge.
    /// `budget` bounds the statement that evaluates the app's predicate (the merge's, per app),
    /// and only that one: a budget stopping a DELETE would roll the whole merge batch back.
    static func deleteMatchingRows(typeIdentifier: String, predicate: SamplePredicate?, appID: String,
                                   workouts: ReadScope, budget: StatementBudget? = nil, _ db: Database) throws -> Int {
        let matching = try matchingOwnRows(typeIdentifier: typeIdentifier, predicate: predicate, appID: appID, workouts: workouts, db)
        let rowIDs = try StatementBudget.$current.withValue(budget) {
            try Int64.fetchAll(db, sql: "SELECT o.id FROM objects o WHERE \(matching.sql)", arguments: matching.arguments)
        }
        if isCorrelation(typeIdentifier) { try OwnCorrelationShares.check(rowIDs, appID: appID, db) }
        return try deleteRows(rowIDs, db)
    }

    /// One chunk of `deleteMatching`, selected on a reader: at most `deletionChunk` matched
    /// objects committed by the call's first chunk, in (change, row) order after the previous
    /// chunk's last, read along the (type, source, change) index so no chunk sorts or re-reads what
    /// an earlier one passed. The first chunk of a correlation type also lists every matched
    /// correlation, for the share check.
    static func selectMatchingChunk(typeIdentifier: String, predicate: SamplePredicate?, appID: String,
                                    workouts: ReadScope, chunk: DeletionChunk.Resolved, _ db: Database) throws -> SelectedChunk {
        let matching = try matchingOwnRows(typeIdentifier: typeIdentifier, predicate: predicate, appID: appID, workouts: workouts, db)
        var correlations: [Int64]?
        if chunk.isFirst, isCorrelation(typeIdentifier) {
            correlations = try Int64.fetchAll(db, sql: "SELECT o.id FROM objects o WHERE \(matching.sql) AND o.change_seq <= ?",
                                              arguments: matching.arguments + [chunk.through])
        }
        var sql = "SELECT o.change_seq, o.id FROM objects o INDEXED BY objects_by_type_source_change WHERE \(matching.sql) AND o.change_seq <= ?"
        var arguments = matching.arguments + [chunk.through]
        if let after = chunk.after {
            sql += " AND (o.change_seq, o.id) > (?, ?)"
            arguments += [after.change, after.row]
        }
        let rows = try Row.fetchAll(db, sql: sql + " ORDER BY o.change_seq, o.id LIMIT ?", arguments: arguments + [deletionChunk])
        var next: DeletionChunk?
        if rows.count == deletionChunk, let last = rows.last {
            next = .next(through: chunk.through, after: (change: last[0], row: last[1]))
        }
        return SelectedChunk(rowIDs: rows.map { $0[1] as Int64 }, correlations: correlations, through: chunk.through,
                             isFirst: chunk.isFirst, next: next)
    }

    /// What a reader selected for one chunk of `deleteMatching`.
    public struct SelectedChunk: Sendable {
        let rowIDs: [Int64]
        /// Every correlation the deletion matches, on the first chunk of a correlation type.
        let correlations: [Int64]?
        let through: Int64
        let isFirst: Bool
        let next: DeletionChunk?
    }

    /// Of `rowIDs`, those that are, in the writer's transaction, still `appID`'s own objects of
    /// `typeIdentifier` committed by `through`: rows deleted meanwhile are gone, and a row id
    /// reused since (SQLite may reuse the largest) carries a later change number. By row id, so the
    /// writer's cost is the chunk's size, never the app's predicate.
    static func stillOwned(_ rowIDs: [Int64], typeIdentifier: String, appID: String, through: Int64,
                           _ db: Database) throws -> [Int64] {
        guard !rowIDs.isEmpty else { return [] }
        let own = SampleSQL.visibility(.ownSamples(appID: appID))
        var arguments: StatementArguments = [jsonIDs(rowIDs), try SampleSQL.typeID(db, typeIdentifier)]
        arguments += own.arguments
        arguments += [through]
        return try Int64.fetchAll(db, sql: """
            SELECT o.id FROM objects o WHERE o.id IN (SELECT value FROM json_each(?)) \
            AND o.type_id = ? AND \(own.sql) AND o.change_seq <= ? ORDER BY o.id
            """, arguments: arguments)
    }

    private static func jsonIDs(_ rowIDs: [Int64]) -> String {
        "[" + rowIDs.map(String.init).joined(separator: ",") + "]"
    }

    /// The conditions every matching deletion applies: the app's own objects of the type that the
    /// predicate (compiled within the app's own scope, workouts within `workouts`) matches.
    private static func matchingOwnRows(typeIdentifier: String, predicate: SamplePredicate?, appID: String,
                                        workouts: ReadScope, _ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let own = SampleSQL.visibility(.ownSamples(appID: appID))
        var conditions = ["o.type_id = ?", own.sql]
        var arguments: StatementArguments = [try SampleSQL.typeID(db, typeIdentifier)]
        arguments += own.arguments
        if let predicate {
            let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: Visibility(scope: .ownSamples(appID: appID), workouts: workouts,
                                                                                     correlations: .ownSamples(appID: appID)), db)
            conditions.append("(\(compiled.sql))")
            arguments += compiled.arguments
        }
        return (conditions.joined(separator: " AND "), arguments)
    }

    /// Deletes the rows under one change number (none when there is nothing to delete) and
    /// returns how many went.
    static func deleteRows(_ rowIDs: [Int64], _ db: Database) throws -> Int {
        guard !rowIDs.isEmpty else { return 0 }
        let change = try ObjectDeleter.nextChange(db)
        var deleted = 0
        for rowID in rowIDs where try ObjectDeleter.deleteAndRecord(db, rowID: rowID, change: change) != nil {
            deleted += 1
        }
        return deleted
    }
}

/// Where `deleteMatching` stands between its commits: before the first (which records the
/// store's change number, so later saves are not swept up), or after a given (change, row).
enum DeletionChunk: Sendable {
    case first
    case next(through: Int64, after: (change: Int64, row: Int64))

    struct Resolved {
        let through: Int64
        let after: (change: Int64, row: Int64)?
        var isFirst: Bool { after == nil }
    }

    func resolved(_ db: Database) throws -> Resolved {
        switch self {
        case .first: Resolved(through: try ReadSnapshot.changeNumber(db), after: nil)
        case let .next(through, after): Resolved(through: through, after: after)
        }
    }
}

/// `deleteMatching` stopped between two chunks (a lock or key change drained the store): the
/// chunks before were deleted and recorded; `deleted` says how many objects they held.
public struct DeletionCutShort: Error, Sendable {
    public let deleted: Int
}
