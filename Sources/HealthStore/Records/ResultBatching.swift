import HealthModel

/// How a streamed answer is cut into batches, each sent as one frame: after `rows` rows, and
/// before the row that would take a batch's encoded size past `bytes` (`BatchBound`, the rule
/// listings are cut by too). A batch always takes its first row, however large (one saved
/// object fits a frame: the save that stored it did).
///
/// Counts alone did not bound a frame: rows carry metadata, devices and workout parts another
/// app wrote, so 500 of them could pass the frame limit and the reader refused the answer
/// (`WireLimits.resultBatchBytes`). The store does not know the wire; its caller says how large
/// a row is as it will send it (`measure`), and the store cuts there, where it also knows where
/// a stale answer resumes (`SampleQueryResume`).
public struct ResultBatching<Row> {
    public var rows: Int
    public var bytes: Int
    /// A row's encoded size in the answer.
    public var measure: (Row) -> Int

    public init(rows: Int, bytes: Int, measure: @escaping (Row) -> Int) {
        self.rows = max(1, rows)
        self.bytes = bytes
        self.measure = measure
    }

    /// Count only: for readers inside healthd (the manager's prompts, tests), never for a frame.
    public static func rows(_ rows: Int) -> ResultBatching {
        ResultBatching(rows: rows, bytes: .max) { _ in 0 }
    }
}
