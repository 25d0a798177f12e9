import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Background delivery's methods: the app's enable/disable calls (HKHealthStore), the
/// manager's listing, and the launch agent's WatchLaunches stream.
///
/// Enabling answers the same whatever the app's read permission: a registration for a type the
/// app may not read is accepted and simply never launches it for other apps' data.
enum BackgroundDeliveryService {
    static func enable(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try BackgroundDeliverySpec(wire: payload)
        try checkEntitled(app)
        try ChangeQueries.checkSampleType(spec.typeIdentifier)
        guard let frequency = spec.frequency else {
            throw HKError(.errorInvalidArgument, "enableBackgroundDelivery needs a frequency (HKUpdateFrequency .immediate, .hourly, .daily or .weekly)")
        }
        let registration = BackgroundDeliveryRegistration(appID: app.id, typeIdentifier: spec.typeIdentifier,
                                                          frequency: frequency, enabledDate: Date())
        try await context.store.enableBackgroundDelivery(registration)
        context.backgroundDelivery.registrationsChanged(appID: app.id)
        context.logger.info("background delivery enabled", metadata: ["app": "\(app.id)", "frequency": "\(frequency.name)"])
        return MethodTable.Reply(EmptyMessage())
    }

    static func disable(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try BackgroundDeliverySpec(wire: payload)
        try checkEntitled(app)
        try ChangeQueries.checkSampleType(spec.typeIdentifier)
        try await context.store.disableBackgroundDelivery(appID: app.id, typeIdentifier: spec.typeIdentifier)
        context.backgroundDelivery.registrationsChanged(appID: app.id)
        return MethodTable.Reply(EmptyMessage())
    }

    static func disableAll(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        _ = try EmptyMessage(wire: payload)
        try checkEntitled(app)
        try await context.store.disableBackgroundDelivery(appID: app.id, typeIdentifier: nil)
        context.backgroundDelivery.registrationsChanged(appID: app.id)
        return MethodTable.Reply(EmptyMessage())
    }

    /// HealthKit refuses background delivery to an app without the entitlement, with
    /// errorAuthorizationDenied; the Linux counterpart of the entitlement is the manifest's.
    private static func checkEntitled(_ app: AppManifest) throws(HKError) {
        guard app.allowsBackgroundDelivery else {
            throw HKError(.errorAuthorizationDenied, """
                Missing \(AppManifest.backgroundDeliveryEntitlement) entitlement: add it to the "entitlements" of \
                \(app.id)'s manifest and install it again with `healthctl apps install`
                """)
        }
    }

    // MARK: Manager

    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let query = try BackgroundRegistrationQuery(wire: payload)
        let registrations = try await context.store.withDatabase { database -> [BackgroundDeliveryRegistration]? in
            if let appID = query.appID, try database.apps.find(id: appID) == nil { return nil }
            return try database.backgroundDeliveries.registrations(appID: query.appID)
        }
        guard let registrations else {
            throw HKError(.errorInvalidArgument, "no installed app \(query.appID?.prefix(128) ?? ""); see `healthctl apps list`")
        }
        return MethodTable.Reply(BackgroundRegistrationList(registrations))
    }

    /// `health-sandbox agent`: every launch due now, then each one as it falls due, until the
    /// agent cancels. Launches handed to it but not sent when the call ends stay due for the
    /// next agent.
    static func watchLaunches(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        _ = try EmptyMessage(wire: payload)
        guard case let .manager(peer) = caller else { throw HKError(.errorAuthorizationDenied, "this method is for the launch agent") }
        let coordinator = context.backgroundDelivery
        let agent = try coordinator.launches.attach(pid: peer.pid)
        context.logger.notice("launch agent attached", metadata: ["pid": "\(peer.pid)"])
        defer {
            coordinator.launchesUndelivered(coordinator.launches.detach(agent.id))
            context.logger.notice("launch agent detached", metadata: ["pid": "\(peer.pid)"])
        }
        coordinator.agentAttached()
        for await request in agent.requests {
            // Confirmed before the send: a reply can reach the agent at once (written directly
            // when nothing is queued), and the agent may report the launch before this line
            // would run after the send — its outcome refused as for an unknown request. A send
            // that fails detaches the agent, which hands back sent requests as well.
            // The schedule hears of it before the send too, for the same reason: an outcome
            // that overtook this event found the launch not yet dispatched and was dropped (the
            // skipped launch then waited for an acknowledgement that never came, and backed off).
            coordinator.launches.confirmSent(request.requestID, by: agent.id)
            coordinator.launchDispatched(request)
            try await responder.send(request.wireBytes())
        }
        throw CancellationError()
    }

    /// The agent's report of what it did with a launch request. Only the attached agent's
    /// process may report, and only for requests it was sent; anything else is refused alike.
    static func reportLaunchOutcome(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let outcome = try LaunchOutcome(wire: payload)
        guard case let .manager(peer) = caller else { throw HKError(.errorAuthorizationDenied, "this method is for the launch agent") }
        do {
            try context.backgroundDelivery.launchOutcome(outcome, from: peer.pid)
        } catch {
            throw RPCStatus(.failedPrecondition, "no launch request \(outcome.requestID) awaits an outcome from this process; only the attached health-sandbox agent reports launches")
        }
        return MethodTable.Reply(EmptyMessage())
    }
}
