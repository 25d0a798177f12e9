import HealthWire

/// One delivery of an anchored query: the initial results, or one update.
struct AnchoredDelivery: Sendable {
    let samples: [HKSample]
    let deletedObjects: [HKDeletedObject]
    let anchor: HKQueryAnchor
}

extension BrokerConnection {
    /// Runs an anchored query, handing each complete delivery to `deliver` in order. Returns
    /// when the broker ends the stream (after the initial results, unless long-running);
    /// cancelling the calling task stops the broker's stream and throws `errorUserCanceled`.
    func anchoredDeliveries(_ spec: AnchoredQuerySpec,
                            _ deliver: @Sendable (AnchoredDelivery) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.queryAnchored, spec)
        var samples: [HKSample] = []
        var deleted: [HKDeletedObject] = []
        do {
            for try await payload in batches {
                let batch: AnchoredQueryBatch
                do {
                    batch = try AnchoredQueryBatch(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed anchored-query batch (\(error))")
                }
                samples += try batch.samples.map { (record) throws(HKError) in try HKSample.fetched(record) }
                deleted += batch.deletedObjects.map(HKDeletedObject.init(record:))
                guard batch.endOfDelivery else { continue }
                await deliver(AnchoredDelivery(samples: samples, deletedObjects: deleted, anchor: HKQueryAnchor(bytes: batch.anchor)))
                samples = []
                deleted = []
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
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

    /// Runs a source query.
    func sources(_ spec: TypePredicateSpec) async throws(HKError) -> Set<HKSource> {
        let list: SourceList = try await call(.querySources, spec)
        return Set(list.sources.map { HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier) })
    }
}
