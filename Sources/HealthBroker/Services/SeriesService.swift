import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// `HKHeartbeatSeriesQuery`, `HKElectrocardiogramQuery` and `HKQuantitySeriesSampleQuery`: a series sample's points, read
/// under the sample type's read scope (AuthorizationEngine.readScope, the one choke point): an
/// app without read permission reaches only the series it saved itself, and another app's
/// series fails exactly like one that does not exist. Series are *written* by the ordinary save
/// (heartbeat series: `HKHeartbeatSeriesBuilder.finishSeries`) and import paths, so they are
/// validated, journaled while locked and access-logged as every sample is.
enum SeriesService {
    static func querySeriesData(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let query = try SeriesDataQuery(wire: payload)
        let type = try seriesType(query.typeIdentifier)
        let report = CallAccessReport.current
        try await context.store.withDatabaseOffPool { database in
            let visibility = try StreamVisibility(app: app, types: [type], in: database)
            report?.record(appID: app.id, types: [type])
            // Each batch leaves only while the sample is still the app's to see; otherwise the
            // sample is looked up again under the scope in force now, and one the app lost ends
            // the stream as a missing one would have begun it (`StreamVisibility`).
            var next: Int? = 0
            while let first = next {
                next = try database.samples.seriesPoints(query.sampleUUID, typeIdentifier: type, scope: visibility.scope(type).scope,
                                                         batchSize: WireLimits.seriesPointsPerBatch, from: first,
                                                         within: visibility.snapshot) { first, points, done in
                    let message = SeriesPointBatch(firstIndex: first, points: points, done: done).wireBytes()
                    guard try responder.sendFromSynchronousContext(message, ifStillCurrent: visibility.isCurrent) else { return false }
                    report?.add(count: points.count)
                    return true
                }
                if next != nil { try visibility.refresh() }
            }
        }
    }

    /// The manager's series query (healthctl export): any source's series, since it is the
    /// user's own data; one that does not exist fails with `errorNoData` as for an app.
    static func queryForManager(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let query = try SeriesDataQuery(wire: payload)
        let type = try seriesType(query.typeIdentifier)
        let report = CallAccessReport.current
        report?.record(appID: nil, types: [type])
        try await context.store.withDatabaseOffPool { database in
            try stream(query, type: type, scope: .allSources, database, responder, report)
        }
    }

    private static func stream(_ query: SeriesDataQuery, type: String, scope: ReadScope, _ database: HealthDatabase,
                               _ responder: CallResponder, _ report: CallAccessReport?) throws {
        try database.samples.seriesPoints(query.sampleUUID, typeIdentifier: type, scope: scope,
                                          batchSize: WireLimits.seriesPointsPerBatch) { first, points, done in
            try responder.sendFromSynchronousContext(SeriesPointBatch(firstIndex: first, points: points, done: done).wireBytes())
            report?.add(count: points.count)
        }
    }

    /// Only the types whose points this query streams (the two series types, and quantity types
    /// for `HKQuantitySeriesSampleQuery`); anything else is the caller's mistake, named in the error.
    private static func seriesType(_ identifier: String) throws(HKError) -> String {
        guard identifier == HKDataTypeIdentifierHeartbeatSeries || identifier == HKElectrocardiogramTypeIdentifier
                || HKObjectType.type(forIdentifier: identifier) is HKQuantityType else {
            throw HKError(.errorInvalidArgument,
                          "QuerySeriesData reads heartbeat series, electrocardiograms and quantity samples, not \(identifier.prefix(100))")
        }
        return identifier
    }
}
