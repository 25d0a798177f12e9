import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKObserverQuery: an update at start (as HealthKit fires one), then one each time a change the
/// app may see happens to the type — an addition matching the predicate, or a deletion — until
/// the app stops the query (CANCEL).
///
/// Acknowledgements: the SDK calls AcknowledgeObserverUpdate (a unary call naming the observer
/// and the update) when the app calls the update's completion handler. Until then at most one
/// update is outstanding: visible changes that happen meanwhile are folded into a single update
/// sent as soon as the acknowledgement arrives. An app that never calls the completion handler
/// therefore gets no further updates — a documented difference from HealthKit, which keeps
/// calling and only backs off for background delivery.
///
/// Every update is decided at the moment it is sent (`DeliveryRecheck`), with the app's read
/// scope as it is then, inside the index: a hidden app's save wakes the query but never reaches
/// the app, and an update held for an acknowledgement is dropped if the user revoked (or a
/// temporary grant expired, or its window narrowed) before the app acknowledged.
enum ObserverQueryService {
    static func observe(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try TypePredicateSpec(wire: payload)
        try ChangeQueries.check(spec)
        let report = CallAccessReport.current
        let observer = context.observers.register(appID: app.id, typeIdentifier: spec.typeIdentifier,
                                                  connection: CallerConnection.current)
        defer {
            context.observers.remove(observer.id)
            // A change this query was sent but the app never acknowledged is a launch's now.
            context.backgroundDelivery.observerEnded(appID: app.id, typeIdentifier: spec.typeIdentifier)
        }
        let continuation = observer.continuation
        let token = context.changes.subscribe(.init(appID: app.id, typeIdentifier: spec.typeIdentifier)) {
            continuation.yield(.wake)
        }
        defer { context.changes.unsubscribe(token) }

        // Changes from here on count; the first update stands for everything before. The first
        // check runs now rather than at the first wake: it compiles and runs the predicate's
        // statement, so whatever the request itself gets wrong ends the call here. Found only
        // at a wake, it would end the query when any app — one this app may not read included —
        // saved the type, and tell the app so.
        var checkedThrough = try await context.store.withDatabase { database in
            try DeliveryRecheck.check(database, appID: app.id, typeIdentifier: spec.typeIdentifier, predicate: spec.predicate,
                                      after: database.changeFeed.currentChange()).through
        }
        report?.record(appID: app.id, types: [spec.typeIdentifier])
        var delivery: UInt64 = 1
        // The change number the outstanding update was decided through: its acknowledgement
        // tells background delivery that everything up to there reached the app.
        var deliveredThrough = checkedThrough
        try await responder.send(ObserverDelivery(observerID: observer.id, delivery: delivery).wireBytes())
        var awaitingAcknowledgement = true
        // A wake-up while an update awaits its acknowledgement is only noted: whether it is owed
        // is decided when it would be sent, under the grants of that moment (DeliveryRecheck).
        var wokenMeanwhile = false
        for await signal in observer.signals {
            switch signal {
            case .wake:
                guard !awaitingAcknowledgement else {
                    wokenMeanwhile = true
                    continue
                }
            case let .acknowledged(acknowledged):
                guard awaitingAcknowledgement, acknowledged == delivery else { continue }
                awaitingAcknowledgement = false
                // What a background launch waits for: the app has taken the update.
                context.backgroundDelivery.observerAcknowledged(appID: app.id, typeIdentifier: spec.typeIdentifier,
                                                                through: deliveredThrough)
                guard wokenMeanwhile else { continue }
                wokenMeanwhile = false
            }
            // The moment of sending: re-check under the app's grants as they are now.
            let cursor = checkedThrough
            let verdict = try await context.store.withDatabase { database in
                try DeliveryRecheck.check(database, appID: app.id, typeIdentifier: spec.typeIdentifier,
                                          predicate: spec.predicate, after: cursor)
            }
            checkedThrough = verdict.through
            guard verdict.changed else { continue }
            delivery += 1
            deliveredThrough = verdict.through
            try await responder.send(ObserverDelivery(observerID: observer.id, delivery: delivery).wireBytes())
            report?.add(count: 1)
            awaitingAcknowledgement = true
        }
        throw CancellationError()
    }

    static func acknowledge(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let acknowledgement = try ObserverDelivery(wire: payload)
        try context.observers.acknowledge(appID: app.id, connection: CallerConnection.current,
                                          observerID: acknowledgement.observerID, delivery: acknowledgement.delivery)
        return MethodTable.Reply(EmptyMessage())
    }
}
