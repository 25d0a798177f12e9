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

    /// Correlation query batches, each correlation measured with its samples.
    static var correlations: ResultBatching<SampleRecord> {
        ResultBatching(rows: WireLimits.samplesPerBatch, bytes: WireLimits.resultBatchBytes, measure: SampleList.encodedSize(of:))
    }

    /// Anchored query steps.
    static var changes: ChangeFeedBatching {
        ChangeFeedBatching(bytes: WireLimits.resultBatchBytes, measureAdded: SampleList.encodedSize(of:),
                           measureDeleted: AnchoredQueryBatch.encodedSizeBound(of:))
    }
}
