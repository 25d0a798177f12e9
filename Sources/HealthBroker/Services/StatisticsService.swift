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

    /// The intervals leave in batches, each only while the app's scope is the one they were
    /// computed under (`StreamVisibility`); otherwise the collection is computed again under the
    /// scope in force now, from the samples committed by the first computation (its snapshot),
    /// and goes on after the last interval sent — an interval is sent once, and those still to
    /// come hold only what the app may see now, and nothing saved since the query began.
    static func queryStatisticsCollection(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8],
                                          _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try StatisticsCollectionSpec(wire: payload)
        try spec.validate()
        let type = try spec.statistics.validatedType()
        let typeIdentifier = spec.statistics.typeIdentifier
        let report = CallAccessReport.current
        var lastSent: Int64?
        var first = true
        var rereading = false
        // One for the whole answer: its snapshot bounds every computation after the first.
        let visibility = try await context.store.withDatabase { database in
            try StreamVisibility(app: app, types: [typeIdentifier], in: database)
        }
        while true {
            // The closure sets the outcome: returning it crashed the release build's coroutine
            // splitting (swift 6.3, signal 11) when it was returned in a tuple with the class.
            var computed: StatisticsComputation.Outcome<[StatisticsResult]>?
            try await context.store.withDatabase { database in
                // The scopes in force now, resolved while the store is open, as at the first reading.
                if rereading { try visibility.refresh() }
                computed = try StatisticsComputation.collection(spec, type: type, scope: visibility.scope(typeIdentifier),
                                                                within: visibility.snapshot, in: database)
            }
            guard let outcome = computed else { return }
            if first {
                report?.record(appID: app.id, types: [typeIdentifier], count: outcome.sampleCount,
                               detail: "statistics collection, \(outcome.result.count) intervals")
                first = false
            }
            let unsent = outcome.result.filter { result in lastSent.map { result.span.start > $0 } ?? true }
            var start = 0
            var stale = false
            while start < unsent.count {
                let end = min(start + StatisticsLimits.statisticsPerBatch, unsent.count)
                guard try await responder.send(StatisticsBatch(Array(unsent[start..<end])).wireBytes(),
                                               ifStillCurrent: visibility.isCurrent) else {
                    stale = true
                    break
                }
                lastSent = unsent[end - 1].span.start
                start = end
            }
            if !stale { return }
            rereading = true
        }
    }
}
