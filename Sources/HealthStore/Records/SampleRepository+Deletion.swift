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
    /// `accessLog`: the call's entry, written in the same savepoint with the count (see `insert`).
    public func deleteMatching(typeIdentifier: String, predicate: SamplePredicate?, appID: String,
                               workouts: ReadScope, accessLog: AccessLogEntryDraft? = nil) async throws -> Int {
        try await commits.submit(returning: { db in
            let deleted = try Self.deleteMatchingRows(typeIdentifier: typeIdentifier, predicate: predicate, appID: appID,
                                                      workouts: workouts, db)
            if let accessLog { try AccessLogRepository.write(accessLog, count: deleted, db) }
            return deleted
        })
    }

    /// `deleteMatching` inside the caller's transaction (also the pending journal's merge of a
    /// deletion made while locked, resolved against the store as it is at merge).
    static func deleteMatchingRows(typeIdentifier: String, predicate: SamplePredicate?, appID: String,
                                   workouts: ReadScope, _ db: Database) throws -> Int {
        let own = SampleSQL.visibility(.ownSamples(appID: appID))
        var conditions = ["o.type_id = ?", own.sql]
        var arguments: StatementArguments = [try SampleSQL.typeID(db, typeIdentifier)]
        arguments += own.arguments
        if let predicate {
            let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: Visibility(scope: .ownSamples(appID: appID), workouts: workouts,
                                                                                     correlations: .ownSamples(appID: appID)))
            conditions.append("(\(compiled.sql))")
            arguments += compiled.arguments
        }
        let rowIDs = try Int64.fetchAll(db, sql: "SELECT o.id FROM objects o WHERE \(conditions.joined(separator: " AND "))",
                                        arguments: arguments)
        if isCorrelation(typeIdentifier) { try OwnCorrelationShares.check(rowIDs, appID: appID, db) }
        return try deleteRows(rowIDs, db)
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
