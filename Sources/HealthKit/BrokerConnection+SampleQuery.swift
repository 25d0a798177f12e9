import HealthModel
import HealthWire

extension BrokerConnection {
    /// Runs one sample query: every streamed batch, decoded, in the order the broker sent it.
    /// Cancelling the calling task stops the broker's stream and throws `errorUserCanceled`.
    func samples(matching spec: SampleQuerySpec) async throws(HKError) -> [HKSample] {
        try await streamedSamples(.querySamples, spec, describing: "samples")
    }

    /// Runs a query whose answer streams as `SampleList` batches (sample and correlation
    /// queries): every record, decoded, in the order the broker sent it. `describing` names the
    /// results in the error for a malformed batch.
    func streamedSamples(_ method: HealthStoreMethod, _ request: some WireMessage,
                         describing results: String) async throws(HKError) -> [HKSample] {
        var samples: [HKSample] = []
        try await streamedBatches(method, request, describing: results) { samples += $0 }
        return samples
    }

    /// Runs one sample query, handing each streamed batch, decoded, to `receive` as it arrives
    /// (`HKDocumentQuery` passes them on batch by batch, as HealthKit does).
    func sampleBatches(matching spec: SampleQuerySpec, _ receive: ([HKSample]) -> Void) async throws(HKError) {
        try await streamedBatches(.querySamples, spec, describing: "samples", receive)
    }

    private func streamedBatches(_ method: HealthStoreMethod, _ request: some WireMessage, describing results: String,
                                 _ receive: ([HKSample]) -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, batches) = try stream(method, request)
        let parts = FetchedObjectParts()
        // One decoder per answer: plain samples are read from the frame's bytes with their
        // shared parts decoded once (FetchedSampleDecoder), everything else through protobuf-c.
        var decoder = FetchedSampleDecoder()
        do {
            for try await payload in batches {
                let batch: FetchedSampleBatch
                do {
                    batch = try decoder.decode(payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed batch of \(results) (\(error))")
                }
                receive(try HKSample.fetched(batch, sharing: parts))
            }
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        // A cancelled stream ends quietly; what was collected is not the whole answer.
        if Task.isCancelled { throw Self.queryStopped }
    }

    static let queryStopped = HKError(.errorUserCanceled,
                                      "the query was stopped (HKHealthStore.stop(_:), or its task was cancelled)")
}
