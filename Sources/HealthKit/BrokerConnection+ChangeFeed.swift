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

    /// Runs an observer query: `update` gets each update's delivery number, calls the app's
    /// handler and returns what to acknowledge once that handler has returned (`handled`, or
    /// `handledAndCompleted` if the app called the completion handler by then); the broker then
    /// may send the next update. A completion handler called later is sent on its own
    /// (`acknowledgeCompletion`). Ends only with an error or cancellation (`errorUserCanceled`).
    func observerUpdates(_ spec: TypePredicateSpec,
                         _ update: @Sendable (ObserverDelivery) async -> ObserverAcknowledgement.Step) async throws(HKError) {
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
                let step = await update(delivery)
                // The stream may have ended meanwhile (stopped query): then nobody waits for it.
                if Task.isCancelled { break }
                let _: EmptyMessage = try await call(.acknowledgeObserverUpdate, ObserverAcknowledgement(delivery, step))
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        throw HKError(.unknownError, "healthd ended the observer query without an error")
    }

    /// Tells healthd the app called the completion handler of `delivery` after its update
    /// handler returned: background delivery then counts the update received. The app may call
    /// it from any thread at any time, also after stopping the query — then healthd refuses the
    /// acknowledgement (the observer is gone), and nothing waits for the answer.
    func acknowledgeCompletion(of delivery: ObserverDelivery) {
        Task {
            let _: EmptyMessage? = try? await call(.acknowledgeObserverUpdate, ObserverAcknowledgement(delivery, .completed))
        }
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
