import HealthWire

/// One delivery of an anchored query: the initial results, or one update.
struct AnchoredDelivery: Sendable {
    let samples: [HKSample]
    let deletedObjects: [HKDeletedObject]
    let anchor: HKQueryAnchor
}

extension BrokerConnection {
    /// Runs an anchored query, handing each complete delivery to `deliver` in order. Returns
    /// when the broker ends the stream after the initial results of a query that is not
    /// long-running; a long-running one ends only with an error. Cancelling the calling task
    /// stops the broker's stream and throws `errorUserCanceled`.
    func anchoredDeliveries(_ spec: AnchoredQuerySpec,
                            _ deliver: @Sendable (AnchoredDelivery) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.queryAnchored, spec)
        let parts = FetchedObjectParts()
        var samples: [HKSample] = []
        var deleted: [HKDeletedObject] = []
        var deliveries = 0
        do {
            for try await payload in batches {
                let batch: AnchoredQueryBatch
                do {
                    batch = try AnchoredQueryBatch(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed anchored-query batch (\(error))")
                }
                samples += try batch.samples.map { (record) throws(HKError) in try HKSample.fetched(record, sharing: parts) }
                deleted += batch.deletedObjects.map(HKDeletedObject.init(record:))
                guard batch.endOfDelivery else { continue }
                await deliver(AnchoredDelivery(samples: samples, deletedObjects: deleted, anchor: HKQueryAnchor(bytes: batch.anchor)))
                deliveries += 1
                samples = []
                deleted = []
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        // Without these checks the app's handler would never hear of the query again.
        if deliveries == 0 || !samples.isEmpty || !deleted.isEmpty {
            throw HKError(.unknownError, "healthd ended the anchored query in the middle of a delivery")
        }
        if spec.longRunning { throw HKError(.unknownError, "healthd ended the long-running anchored query without an error") }
    }

    /// Runs an observer query: `update` gets each update's delivery number and must return once
    /// the app called that update's completion handler; the acknowledgement then goes to the
    /// broker. Ends only with an error or cancellation (`errorUserCanceled`).
    func observerUpdates(_ spec: TypePredicateSpec,
                         _ update: @Sendable (ObserverDelivery) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, updates) = try stream(.observeChanges, spec)
        do {
            for try await payload in updates {
                let delivery: ObserverDelivery
                do {
                    delivery = try ObserverDelivery(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed observer update (\(error))")
                }
                await update(delivery)
                // The stream may have ended meanwhile (stopped query): then nobody waits for it.
                if Task.isCancelled { break }
                let _: EmptyMessage = try await call(.acknowledgeObserverUpdate, delivery)
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        throw HKError(.unknownError, "healthd ended the observer query without an error")
    }

    /// Runs a source query. Cancelling the calling task stops the broker's call and throws
    /// `errorUserCanceled`.
    func sources(_ spec: TypePredicateSpec) async throws(HKError) -> Set<HKSource> {
        if Task.isCancelled { throw Self.queryStopped }
        let list: SourceList = try await call(.querySources, spec)
        if Task.isCancelled { throw Self.queryStopped }
        return Set(list.sources.map { HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier) })
    }
}
