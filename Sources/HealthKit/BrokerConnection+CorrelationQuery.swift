import HealthWire

extension BrokerConnection {
    /// Runs one correlation query: every streamed correlation, with its samples, in the order
    /// the broker sent them. Cancelling the calling task stops the broker's stream and throws
    /// `errorUserCanceled`.
    func correlations(matching spec: CorrelationQuerySpec) async throws(HKError) -> [HKCorrelation] {
        try await streamedSamples(.queryCorrelations, spec, describing: "correlations").map { (sample) throws(HKError) in
            guard let correlation = sample as? HKCorrelation else {
                throw HKError(.unknownError, "healthd answered a correlation query with a sample that is not a correlation")
            }
            return correlation
        }
    }
}
