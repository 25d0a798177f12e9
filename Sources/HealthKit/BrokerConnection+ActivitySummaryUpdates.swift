import HealthWire

extension BrokerConnection {
    /// Runs a long-running activity summary query, handing each complete delivery to `deliver`
    /// in order: every day with data first, then the new or changed days of each change the app
    /// may see. Ends only with an error, or `errorUserCanceled` when the calling task is cancelled.
    func activitySummaryUpdates(_ spec: ActivitySummaryQuerySpec,
                                _ deliver: @Sendable ([ActivitySummaryRecord]) async -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.watchActivitySummaries, spec)
        var pending: [ActivitySummaryRecord] = []
        do {
            for try await payload in batches {
                let batch: ActivitySummaryBatch
                do {
                    batch = try ActivitySummaryBatch(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of activity summaries (\(error))")
                }
                pending += batch.summaries
                guard batch.endOfDelivery else { continue }
                let delivery = pending
                pending = []
                await deliver(delivery)
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        throw HKError(.unknownError, "healthd ended the activity summary query without an error")
    }
}
