import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// `delete(_:)` and `deleteObjects(of:predicate:)`. Share permission for each type is checked
/// first (the errors of a save; `AuthorizationEngine.checkDelete`), before anything is looked up,
/// so those errors cannot depend on what the store holds. Then only the app's own objects are
/// considered: deleting another app's object fails exactly like deleting one that does not exist
/// (SECURITY.md). A correlation type has no grant: its own correlations' contained types are
/// checked in the deletion's transaction (`OwnCorrelationShares`), which deletes the samples too.
enum DeletionService {
    static func deleteObjects(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let references = try ObjectDeletion(wire: payload).objects
        guard !references.isEmpty else { throw HKError(.errorInvalidArgument, "no objects to delete") }
        let types = Set(references.map(\.typeIdentifier))
        for type in types.sorted() { try checkDeletable(type) }
        try await context.store.withGrants { try $0.authorization.checkDelete(app: app, types: types) }
        // The access-log entry commits with the deletion (one transaction, one fsync) when the
        // store is open; while it is locked the dispatcher journals it after the deletion.
        let report = CallAccessReport.current
        let entry = report?.entryForWrite(appID: app.id, types: types.sorted())
        let deleted = try await context.store.delete(references, appID: app.id, accessLog: entry)
        if deleted.entryCommitted {
            report?.committedWithEntry(appID: app.id, types: types.sorted(), count: deleted.count)
        } else {
            CallAccessReport.record(appID: app.id, types: types.sorted(), count: deleted.count)
        }
        let count = deleted.count
        return MethodTable.Reply(DeletedCount(count))
    }

    static func deleteMatching(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let deletion = try MatchingDeletion(wire: payload)
        try checkDeletable(deletion.typeIdentifier)
        // The share check and the app's read scope for workouts come from the grants, which the
        // locked store answers too; the deletion itself runs now, or at merge while locked.
        let workouts = try await context.store.withGrants { database in
            try database.authorization.checkDelete(app: app, types: [deletion.typeIdentifier])
            // Only the app's own objects are deleted; a workout the predicate names is looked up
            // within what the app may read, like every query's.
            return try database.authorization.readScope(app: app, type: deletion.typeIdentifier).workouts
        }
        let report = CallAccessReport.current
        let entry = report?.entryForWrite(appID: app.id, types: [deletion.typeIdentifier])
        let count = try await context.store.deleteMatching(typeIdentifier: deletion.typeIdentifier, predicate: deletion.predicate,
                                                           appID: app.id, workouts: workouts, accessLog: entry)
        report?.committedWithEntry(appID: app.id, types: [deletion.typeIdentifier], count: count)
        return MethodTable.Reply(DeletedCount(count))
    }

    /// Checks that do not depend on who asks: the type exists and holds samples
    /// (`HKObjectType.deletableSampleType`, HealthModel, which the `query-spec` fuzz target runs too).
    private static func checkDeletable(_ identifier: String) throws(HKError) {
        _ = try HKObjectType.deletableSampleType(identifier)
    }
}
