import HealthWire

extension BrokerConnection {
    /// One HKStatisticsQuery: the broker's statistics, or `errorNoData` when nothing matched.
    func statistics(_ spec: StatisticsQuerySpec) async throws(HKError) -> StatisticsResult {
        if Task.isCancelled { throw Self.queryStopped }
        let result: StatisticsResult = try await call(.queryStatistics, spec)
        if Task.isCancelled { throw Self.queryStopped }
        return result
    }

    /// One HKStatisticsCollectionQuery: every streamed interval, in time order.
    func statisticsCollection(_ spec: StatisticsCollectionSpec) async throws(HKError) -> [StatisticsResult] {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.queryStatisticsCollection, spec)
        var results: [StatisticsResult] = []
        do {
            for try await payload in batches {
                do {
                    results += try StatisticsBatch(wire: payload).statistics
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of statistics (\(error))")
                }
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        return results
    }
}
