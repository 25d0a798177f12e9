import HealthWire

extension BrokerConnection {
    /// One HKActivitySummaryQuery: every streamed day, oldest first.
    func activitySummaries(_ spec: ActivitySummaryQuerySpec) async throws(HKError) -> [ActivitySummaryRecord] {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.queryActivitySummaries, spec)
        var summaries: [ActivitySummaryRecord] = []
        do {
            for try await payload in batches {
                do {
                    summaries += try ActivitySummaryBatch(wire: payload).summaries
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of activity summaries (\(error))")
                }
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        return summaries
    }
}
