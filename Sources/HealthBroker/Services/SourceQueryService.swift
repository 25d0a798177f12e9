import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKSourceQuery: the apps that have samples of a type matching a predicate, among the samples
/// the caller may read. An app without read permission finds itself, and only if it saved some.
enum SourceQueryService {
    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try TypePredicateSpec(wire: payload)
        try ChangeQueries.check(spec)
        let sources = try await context.store.withDatabase { database in
            let scope = try database.authorization.readScope(app: app, type: spec.typeIdentifier)
            return try database.samples.sources(of: spec.typeIdentifier, matching: spec.predicate, scope: scope)
        }
        CallAccessReport.record(appID: app.id, types: [spec.typeIdentifier], count: sources.count)
        return MethodTable.Reply(SourceList(sources))
    }
}
