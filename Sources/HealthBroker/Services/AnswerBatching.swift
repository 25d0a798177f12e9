import HealthModel
import HealthStore
import HealthWire

/// How the broker cuts every answer it streams from the store into frames: by the count
/// `WireLimits` gives the types, and before the row that would take a batch past
/// `WireLimits.resultBatchBytes`, each row measured as it will be encoded. One place, so that
/// sample, correlation and anchored answers — the app's and the manager's — cut alike.
/// `CallResponder` refuses any frame that still passes the frame limit.
enum AnswerBatching {
    /// Sample query batches of `type`, measured by the `encoder` that will send them (it keeps
    /// the whole records it encodes to measure, and sends those bytes).
    static func samples(of type: String, encoder: @escaping (FetchedSampleBatch) -> Int) -> ResultBatching<FetchedSampleBatch> {
        ResultBatching(rows: WireLimits.samplesPerBatch(types: [type]), bytes: WireLimits.resultBatchBytes, measure: encoder)
    }

    /// Correlation query batches, each correlation measured with its samples, which `samples`
    /// keeps for the batch's message (`EncodedSamples.sampleList`).
    static func correlations(keptIn samples: EncodedSamples) -> ResultBatching<SampleRecord> {
        ResultBatching(rows: WireLimits.samplesPerBatch, bytes: WireLimits.resultBatchBytes, measure: samples.size(of:))
    }

    /// Anchored query steps, added objects measured into `samples` for the step's message
    /// (`EncodedSamples.anchoredBatch`).
    static func changes(keptIn samples: EncodedSamples) -> ChangeFeedBatching {
        ChangeFeedBatching(bytes: WireLimits.resultBatchBytes, measureAdded: samples.size(of:),
                           measureDeleted: AnchoredQueryBatch.encodedSizeBound(of:))
    }
}
