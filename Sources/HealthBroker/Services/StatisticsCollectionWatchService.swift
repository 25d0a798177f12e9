import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKStatisticsCollectionQuery with a `statisticsUpdateHandler`: the collection, then an update
/// each time the collection the app may see changes, until the app stops the query (CANCEL).
///
/// Every computation is `StatisticsComputation.collection` under the read scope as it is at that
/// moment (`CollectionWatch`), and an update is the difference between the collection last sent
/// and the new one (`StatisticsCollectionChange`). So a change the app may not see leaves the two
/// equal and sends nothing, whatever woke the query; and after a grant is revoked or expires (both
/// wake the query: `SetGrants`, and `GrantExpiryScheduler` at the expiry instant) the next update turns the collection into the app's
/// own samples' collection at once. A reorder of the type's sources wakes it too.
///
/// Updates carry only the changed intervals (plus the starts of intervals that lost all their
/// data): a year of daily intervals costs one interval per save, not 365. The SDK applies them to
/// its copy and hands the app a whole collection, as HealthKit does.
///
/// Wake-ups that arrive while a read runs fold into one (`bufferingNewest(1)`), so a burst of
/// saves costs at most one extra computation per query.
///
/// Flow control: a delivery is computed only once the client took the last one
/// (`waitUntilReady`), and each of its messages leaves only while the scope it was computed
/// under is current (`send(_:ifStillCurrent:)`). A delivery of several messages that a slow
/// client holds up after a grant changed is computed again under the scope in force now and goes
/// on from what the client was sent: the SDK applies a delivery's messages together, at its last.
/// Computed again, it holds only what was committed by the delivery's first reading
/// (`CollectionWatch.read(since:rereading:)`): later commits wake the next delivery.
enum StatisticsCollectionWatchService {
    static func watch(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try StatisticsCollectionSpec(wire: payload)
        try spec.validate()
        let type = try spec.statistics.validatedType()
        let typeIdentifier = spec.statistics.typeIdentifier
        let report = CallAccessReport.current

        // Subscribed before the first computation: a commit between it and the first wait still
        // wakes the loop (and a wake-up that finds nothing new sends nothing).
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let token = context.changes.subscribe(.init(appID: app.id, typeIdentifier: typeIdentifier)) { wake.yield() }
        defer { context.changes.unsubscribe(token) }

        let watch = CollectionWatch(context: context, app: app, spec: spec, type: type)
        var shown: [StatisticsResult] = []

        /// Sends what turns `shown` into `reading`'s collection as one delivery (the initial one
        /// even when empty); returns the reading it ended with.
        func deliver(_ first: CollectionWatch.Reading, initial: Bool) async throws -> CollectionWatch.Reading {
            var reading = first
            var target = reading.outcome?.result ?? shown
            var begun = false
            var messages = StatisticsCollectionDelivery.messages(of: StatisticsCollectionChange(from: shown, to: target))
            var index = 0
            if !initial, messages.count == 1, messages[0].changed.isEmpty, messages[0].emptiedStarts.isEmpty { return reading }
            while index < messages.count {
                let message = messages[index]
                guard try await responder.send(message.wireBytes(), ifStillCurrent: reading.visibility.isCurrent) else {
                    // Computed under a scope no longer in force: again, from what was sent, within
                    // the delivery's first reading's snapshot (later commits are the next delivery's).
                    reading = try await watch.read(since: nil, rereading: reading.visibility)
                    target = reading.outcome?.result ?? []
                    let change = StatisticsCollectionChange(from: shown, to: target)
                    if !begun, !initial, change.isEmpty { return reading }
                    messages = StatisticsCollectionDelivery.messages(of: change)
                    index = 0
                    continue
                }
                // Counted as the delivery's first message leaves: a call that ends before the
                // last (its app gone, stopped or killed mid-delivery) was still sent these.
                if !begun, !initial { report?.add(count: reading.outcome?.sampleCount ?? 0) }
                begun = true
                shown = StatisticsCollectionChange(changed: message.changed, emptied: message.emptiedStarts).applied(to: shown)
                index += 1
            }
            return reading
        }

        try await responder.waitUntilReady()
        var reading = try await watch.read(since: nil)
        report?.record(appID: app.id, types: [typeIdentifier], count: reading.outcome?.sampleCount ?? 0,
                       detail: "statistics collection with updates")
        reading = try await deliver(reading, initial: true)
        for await _ in wakeups {
            // Computed only once the client took the last delivery: never ahead of the socket.
            try await responder.waitUntilReady()
            reading = try await watch.read(since: reading.basis)
            guard reading.outcome != nil else { continue }
            reading = try await deliver(reading, initial: false)
        }
        // The wake-up stream only ends with the call's task: the client cancelled.
        throw CancellationError()
    }
}
