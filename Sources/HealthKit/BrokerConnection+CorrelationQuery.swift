import HealthWire

extension BrokerConnection {
    /// Runs one correlation query: every streamed correlation, with its samples, in the order
    /// the broker sent them. Cancelling the calling task stops the broker's stream and throws
    /// `errorUserCanceled`.
    func correlations(matching spec: CorrelationQuerySpec) async throws(HKError) -> [HKCorrelation] {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(.queryCorrelations, spec)
        var correlations: [HKCorrelation] = []
        do {
            for try await payload in batches {
                let batch: SampleList
                do {
                    batch = try SampleList(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of correlations (\(error))")
                }
                for record in batch.samples {
                    guard let correlation = try HKSample.fetched(record) as? HKCorrelation else {
                        throw HKError(.unknownError, "healthd answered a correlation query with a sample that is not a correlation")
                    }
                    correlations.append(correlation)
                }
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if Task.isCancelled { throw Self.queryStopped }
        return correlations
    }
}
