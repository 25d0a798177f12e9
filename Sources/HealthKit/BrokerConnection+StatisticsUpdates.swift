import HealthWire

/// One delivery of a long-running statistics collection, assembled from the broker's messages.
struct StatisticsCollectionUpdate: Sendable {
    /// The collection's intervals with data as they are now, in time order.
    let intervals: [StatisticsResult]
    /// The intervals this delivery changed, in time order: new or different ones with their
    /// statistics, emptied ones with none. Every interval with data, initially.
    let updated: [StatisticsResult]
}

extension BrokerConnection {
    /// Runs a long-running collection query, handing each complete delivery to `deliver` in
    /// order: the initial collection, then one per change the app may see. The broker sends
    /// only the changed intervals; they are applied here to the previous collection. Ends only
    /// with an error, or `errorUserCanceled` when the calling task is cancelled.
    func statisticsCollectionUpdates(_ spec: StatisticsCollectionSpec,
                                     _ deliver: @Sendable (StatisticsCollectionUpdate) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, messages) = try stream(.watchStatisticsCollection, spec)
        var intervals: [StatisticsResult] = []
        var pending = StatisticsCollectionChange(changed: [], emptied: [])
        do {
            for try await payload in messages {
                let message: StatisticsCollectionDelivery
                do {
                    message = try StatisticsCollectionDelivery(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed statistics collection update (\(error))")
                }
                pending.changed += message.changed
                pending.emptied += message.emptiedStarts
                guard message.endOfDelivery else { continue }
                let update = Self.apply(pending, to: intervals)
                intervals = update.intervals
                pending = StatisticsCollectionChange(changed: [], emptied: [])
                await deliver(update)
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        throw HKError(.unknownError, "healthd ended the statistics collection query without an error")
    }

    /// `change` applied to `intervals`, and the intervals it touched (an emptied one keeps its
    /// span, with no statistics).
    private static func apply(_ change: StatisticsCollectionChange, to intervals: [StatisticsResult]) -> StatisticsCollectionUpdate {
        let emptied = Set(change.emptied)
        let emptiedIntervals = intervals.filter { emptied.contains($0.span.start) }
            .map { StatisticsResult(span: $0.span, merged: StatisticsValues()) }
        return StatisticsCollectionUpdate(intervals: change.applied(to: intervals),
                                          updated: (change.changed + emptiedIntervals).sorted { $0.span.start < $1.span.start })
    }
}
