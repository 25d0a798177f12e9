import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Correlation queries: HKCorrelationQuery (`QueryCorrelations`) and HKSampleQuery of a
/// correlation type (routed here by both QuerySamples methods). A correlation type has no
/// grant of its own; what a caller sees is decided by the read scopes of the types it may
/// hold (`SampleRepository.queryCorrelations` explains the rule).
enum CorrelationService {
    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try CorrelationQuerySpec(wire: payload)
        try check(spec)
        try await stream(spec, for: app, context, responder)
    }

    /// Runs a checked query for `app`, each contained type within the app's read scope for it.
    static func stream(_ spec: CorrelationQuerySpec, for app: AppManifest, _ context: BrokerContext,
                       _ responder: CallResponder) async throws {
        let report = CallAccessReport.current
        let types = CorrelationRules.memberTypes(of: spec.typeIdentifier).map(\.identifier)
        try await context.store.withDatabaseOffPool { database in
            let visibility = try StreamVisibility(app: app, types: types, in: database)
            report?.record(appID: app.id, types: [spec.typeIdentifier])
            // Each batch only while every member type's scope is the one it was read under
            // (`StreamVisibility`); otherwise the query goes on after the last correlation sent,
            // under the scopes in force now (`SampleQueryResume`), within the first reading's
            // snapshot (`visibility.snapshot`).
            var resume: SampleQueryResume?
            // What each correlation was measured as: the batch's message is built from those bytes.
            let encoded = EncodedSamples()
            repeat {
                let scopes = Dictionary(uniqueKeysWithValues: types.map { ($0, visibility.scope($0)) })
                resume = try database.samples.queryCorrelations(spec, objectScopes: scopes, batching: AnswerBatching.correlations(keptIn: encoded),
                                                                resuming: resume, within: visibility.snapshot) { batch in
                    guard try responder.sendFromSynchronousContext(encoded.sampleList(batch), ifStillCurrent: visibility.isCurrent) else {
                        return false
                    }
                    report?.add(count: batch.count)
                    return true
                }
                if resume != nil { try visibility.refresh() }
            } while resume != nil
        }
    }

    /// Runs a checked query for the manager, which sees every correlation.
    static func streamForManager(_ spec: CorrelationQuerySpec, _ context: BrokerContext, _ responder: CallResponder) async throws {
        let report = CallAccessReport.current
        let scopes = Dictionary(uniqueKeysWithValues: CorrelationRules.memberTypes(of: spec.typeIdentifier).map {
            ($0.identifier, Visibility.allSources)
        })
        try await context.store.withDatabaseOffPool { database in
            try stream(spec, objectScopes: scopes, from: database, to: responder, counting: report)
        }
    }

    /// Checks that do not depend on who asks, so they reveal nothing: `CorrelationQuerySpec.check`
    /// (HealthModel, where the `query-spec` fuzz target runs it too).
    static func check(_ spec: CorrelationQuerySpec) throws(HKError) {
        try spec.check()
    }

    private static func stream(_ spec: CorrelationQuerySpec, objectScopes: [String: Visibility], from database: HealthDatabase,
                               to responder: CallResponder, counting report: CallAccessReport?) throws {
        let encoded = EncodedSamples()
        try database.samples.queryCorrelations(spec, objectScopes: objectScopes, batching: AnswerBatching.correlations(keptIn: encoded)) { batch in
            try responder.sendFromSynchronousContext(encoded.sampleList(batch))
            report?.add(count: batch.count)
        }
    }
}
