import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The manager's source-priority methods: the user orders the apps whose samples statistics
/// merge. Listing shows every source, whatever its grants — it is the user's data.
enum SourcePriorityService {
    static func listSources(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try SourceListRequest(wire: payload)
        let type = request.typeIdentifier.isEmpty ? nil : request.typeIdentifier
        if let type { try checkQuantityType(type) }
        let sources = try await context.store.withDatabase { try $0.sourcePriority.list(typeIdentifier: type) }
        return MethodTable.Reply(SourceEntryList(sources))
    }

    static func setSourcePriority(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let change = try SourcePriorityChange(wire: payload)
        try checkQuantityType(change.typeIdentifier)
        if change.reset {
            guard change.appIDs.isEmpty else {
                throw HKError(.errorInvalidArgument, "a reset takes no app ids: it restores the default order")
            }
            try await context.store.withDatabase { try $0.sourcePriority.reset(typeIdentifier: change.typeIdentifier) }
        } else {
            try check(change.appIDs)
            do {
                try await context.store.withDatabase {
                    try $0.sourcePriority.setOrder(change.appIDs, typeIdentifier: change.typeIdentifier)
                }
            } catch let error as UnknownSourcesError {
                throw HKError(.errorInvalidArgument, "unknown app id\(error.appIDs.count == 1 ? "" : "s") "
                              + error.appIDs.map { String($0.prefix(128)) }.joined(separator: ", ")
                              + ": neither installed nor a source of stored data; see `healthctl sources list`")
            }
        }
        context.changes.post(sourceOrderChangedFor: change.typeIdentifier)
        // Without the type: the log reaches the journal, and a type name is health information.
        context.logger.notice("source priority changed", metadata: ["sources": "\(change.appIDs.count)", "reset": "\(change.reset)"])
        return MethodTable.Reply(EmptyMessage())
    }

    /// Priority decides how statistics merge, which only quantity types have.
    private static func checkQuantityType(_ identifier: String) throws(HKError) {
        guard HKObjectType.type(forIdentifier: identifier) is HKQuantityType else {
            throw HKError(.errorInvalidArgument, "source priority applies to quantity types (their statistics merge "
                          + "sources); \(identifier.prefix(100)) is not one")
        }
    }

    private static func check(_ appIDs: [String]) throws(HKError) {
        guard !appIDs.isEmpty else {
            throw HKError(.errorInvalidArgument, "name at least one app id, highest priority first, or reset the order")
        }
        guard appIDs.count <= 1_000 else { throw HKError(.errorInvalidArgument, "at most 1000 sources can be ordered") }
        var seen: Set<String> = []
        for appID in appIDs where !seen.insert(appID).inserted {
            throw HKError(.errorInvalidArgument, "\(appID.prefix(128)) appears twice in the order")
        }
    }
}
