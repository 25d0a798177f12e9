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

        func send(_ change: StatisticsCollectionChange) async throws {
            for message in StatisticsCollectionDelivery.messages(of: change) { try await responder.send(message.wireBytes()) }
        }

        let watch = CollectionWatch(context: context, app: app, spec: spec, type: type)
        var reading = try await watch.read(since: nil)
        var shown = reading.outcome?.result ?? []
        report?.record(appID: app.id, types: [typeIdentifier], count: reading.outcome?.sampleCount ?? 0,
                       detail: "statistics collection with updates")
        try await send(StatisticsCollectionChange(from: [], to: shown))
        for await _ in wakeups {
            reading = try await watch.read(since: reading.basis)
            guard let current = reading.outcome else { continue }
            let change = StatisticsCollectionChange(from: shown, to: current.result)
            guard !change.isEmpty else { continue }
            try await send(change)
            report?.add(count: current.sampleCount)
            shown = current.result
        }
        // The wake-up stream only ends with the call's task: the client cancelled.
        throw CancellationError()
    }
}
