import HealthModel

extension WireLimits {
    /// Samples per streamed batch when documents may be among them: two documents of at most
    /// `DocumentRules.maximumBytes` (1 MiB) each, with their samples' other fields, stay well
    /// inside one `maxFrameBytes` (4 MiB) frame, where 500 would not.
    public static let documentsPerBatch = 2
}
