import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKObserverQuery: an update at start (as HealthKit fires one), then one each time a change the
/// app may see happens to the type — an addition matching the predicate, or a deletion — until
/// the app stops the query (CANCEL).
///
/// Acknowledgements: the SDK answers each update with AcknowledgeObserverUpdate (a unary call
/// naming the observer and the update) in two steps, kept by `ObserverDeliveryLedger`. *Handled*
/// (the update handler returned) paces the stream: at most one update is in flight, and
/// visible changes meanwhile are folded into a single update sent when it arrives. *Completed*
/// (the app called the completion handler) tells background delivery the app has the update.
/// As in HealthKit, an app that never calls the completion handler still gets an update per
/// change; only background delivery treats it as not received.
///
/// Every update is decided at the moment it is sent (`DeliveryRecheck`), with the app's read
/// scope as it is then, inside the index, outside the query slots (a check bounded by what was
/// committed since the last one: `StoreHandle.withDatabaseToCheck`): a hidden app's save wakes the query but never reaches
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
        var checkedThrough = try await context.store.withDatabaseToCheck { database in
            try DeliveryRecheck.check(database, appID: app.id, typeIdentifier: spec.typeIdentifier, predicate: spec.predicate,
                                      after: database.changeFeed.currentChange()).through
        }
        report?.record(appID: app.id, types: [spec.typeIdentifier])
        var ledger = ObserverDeliveryLedger()
        try await responder.send(ObserverDelivery(observerID: observer.id, delivery: ledger.send(through: checkedThrough)).wireBytes())
        // A wake-up while an update awaits its handled acknowledgement is only noted: whether it
        // is owed is decided when it would be sent, under the grants of that moment (DeliveryRecheck).
        var wokenMeanwhile = false
        for await signal in observer.signals {
            switch signal {
            case .wake:
                guard !ledger.awaitingHandled else {
                    wokenMeanwhile = true
                    continue
                }
            case let .acknowledged(delivery, step):
                let effect = ledger.acknowledge(delivery, step)
                if let through = effect.completedThrough {
                    // What a background launch waits for: the app has taken the update.
                    context.backgroundDelivery.observerAcknowledged(appID: app.id, typeIdentifier: spec.typeIdentifier,
                                                                    through: through)
                }
                guard effect.releasesNext, wokenMeanwhile else { continue }
                wokenMeanwhile = false
            }
            // The moment of sending: re-check under the app's grants as they are now.
            let cursor = checkedThrough
            let verdict = try await context.store.withDatabaseToCheck { database in
                try DeliveryRecheck.check(database, appID: app.id, typeIdentifier: spec.typeIdentifier,
                                          predicate: spec.predicate, after: cursor)
            }
            checkedThrough = verdict.through
            guard verdict.changed else { continue }
            let delivery = ledger.send(through: verdict.through)
            try await responder.send(ObserverDelivery(observerID: observer.id, delivery: delivery).wireBytes())
            report?.add(count: 1)
        }
        throw CancellationError()
    }

    static func acknowledge(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let acknowledgement = try ObserverAcknowledgement(wire: payload)
        try context.observers.acknowledge(appID: app.id, connection: CallerConnection.current,
                                          observerID: acknowledgement.observerID, delivery: acknowledgement.delivery,
                                          step: acknowledgement.step)
        return MethodTable.Reply(EmptyMessage())
    }
}
