import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The app-facing statistics methods. Each validates the request first (the same answer for
/// every app), then takes the caller's read scope from the authorization engine and lets
/// `StatisticsComputation` read only what that scope admits.
enum StatisticsService {
    static func queryStatistics(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try StatisticsQuerySpec(wire: payload)
        let type = try spec.validatedType()
        let report = CallAccessReport.current
        let outcome = try await context.store.withDatabase { database in
            let scope = try database.authorization.readScope(app: app, type: spec.typeIdentifier)
            return try StatisticsComputation.statistics(spec, type: type, scope: scope, in: database)
        }
        report?.record(appID: app.id, types: [spec.typeIdentifier], count: outcome.sampleCount, detail: "statistics")
        guard let result = outcome.result else {
            // HealthKit's answer when nothing matches; it depends only on what the app may see.
            throw HKError(.errorNoData, "No data available for the specified predicate.")
        }
        return MethodTable.Reply(result)
    }

    static func queryStatisticsCollection(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8],
                                          _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try StatisticsCollectionSpec(wire: payload)
        try spec.validate()
        let type = try spec.statistics.validatedType()
        let report = CallAccessReport.current
        let outcome = try await context.store.withDatabase { database in
            let scope = try database.authorization.readScope(app: app, type: spec.statistics.typeIdentifier)
            return try StatisticsComputation.collection(spec, type: type, scope: scope, in: database)
        }
        report?.record(appID: app.id, types: [spec.statistics.typeIdentifier], count: outcome.sampleCount,
                       detail: "statistics collection, \(outcome.result.count) intervals")
        var start = 0
        while start < outcome.result.count {
            let end = min(start + StatisticsLimits.statisticsPerBatch, outcome.result.count)
            try await responder.send(StatisticsBatch(Array(outcome.result[start..<end])).wireBytes())
            start = end
        }
    }
}
