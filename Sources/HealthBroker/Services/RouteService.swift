import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// `HKWorkoutRouteBuilder` and `HKWorkoutRouteQuery`. Uploading needs share permission for the
/// route type, reading a route its read scope: an app without read permission sees only its
/// own routes, and another app's route fails exactly like one that does not exist.
enum RouteService {
    static func insertRouteData(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let chunk = try RouteDataChunk(wire: payload)
        try await context.store.withGrants { try $0.authorization.checkSave(app: app, types: [HKWorkoutRouteTypeIdentifier]) }
        try RouteLocationValidator.check(chunk.locations)
        // Journaled while locked (StoreHandle+PendingWrites).
        let count = try await context.store.insertRouteData(chunk.locations, builderID: chunk.builderID, source: app.source)
        CallAccessReport.record(appID: app.id, types: [HKWorkoutRouteTypeIdentifier], count: chunk.locations.count,
                                detail: "route locations inserted")
        return MethodTable.Reply(RouteLocationCount(count))
    }

    static func finishRoute(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let finish = try RouteFinish(wire: payload)
        try await context.store.withGrants { try $0.authorization.checkSave(app: app, types: [HKWorkoutRouteTypeIdentifier]) }
        try RouteLocationValidator.checkFinish(metadata: finish.metadata, device: finish.device)
        // Journaled while locked, resolved at merge as if finished then (StoreHandle+PendingWrites).
        let route = try await context.store.finishRoute(builderID: finish.builderID, workoutUUID: finish.workoutUUID,
                                                        metadata: finish.metadata, device: finish.device, source: app.source)
        CallAccessReport.record(appID: app.id, types: [HKWorkoutRouteTypeIdentifier], count: 1)
        context.logger.info("route saved", metadata: ["app": "\(app.id)"])
        return MethodTable.Reply(FinishedRoute(route))
    }

    static func queryRouteData(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let query = try RouteDataQuery(wire: payload)
        let report = CallAccessReport.current
        let type = HKWorkoutRouteTypeIdentifier
        try await context.store.withDatabaseOffPool { database in
            let visibility = try StreamVisibility(app: app, types: [type], in: database)
            report?.record(appID: app.id, types: [type])
            // As series data (SeriesService): each batch only while the route is still visible,
            // else the route looked up again from the locations sent, a lost one failing as missing.
            var next: Int? = 0
            while let sent = next {
                next = try database.samples.routeLocations(query.routeUUID, scope: visibility.scope(type).scope,
                                                           batchSize: WireLimits.locationsPerBatch, from: sent,
                                                           within: visibility.snapshot) { batch, done in
                    let message = RouteLocationBatch(batch, done: done).wireBytes()
                    guard try responder.sendFromSynchronousContext(message, ifStillCurrent: visibility.isCurrent) else { return false }
                    report?.add(count: batch.count)
                    return true
                }
                if next != nil { try visibility.refresh() }
            }
        }
    }
}

extension RouteService {
    /// The manager's route query (healthctl export): any source's route, since it is the user's
    /// own data; a route that does not exist fails with `errorNoData` as for an app.
    static func queryForManager(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let query = try RouteDataQuery(wire: payload)
        let report = CallAccessReport.current
        report?.record(appID: nil, types: [HKWorkoutRouteTypeIdentifier])
        try await context.store.withDatabaseOffPool { database in
            try database.samples.routeLocations(query.routeUUID, scope: .allSources, batchSize: WireLimits.locationsPerBatch) { batch, done in
                try responder.sendFromSynchronousContext(RouteLocationBatch(batch, done: done).wireBytes())
                report?.add(count: batch.count)
            }
        }
    }
}

extension AppManifest {
    /// The source the broker records for this app's objects: its identity and the host it runs
    /// on (`HostSystem`), never the app's word.
    var source: SourceRecord {
        SourceRecord(bundleIdentifier: id, name: displayName, version: version).saved(on: .current)
    }
}
