import HealthModel

extension WireLimits {
    /// Samples per streamed batch when documents may be among them: two documents of at most
    /// `DocumentRules.maximumBytes` (1 MiB) each, with their samples' other fields, stay well
    /// inside one `maxFrameBytes` (4 MiB) frame, where 500 would not.
    public static let documentsPerBatch = 2

    /// Samples per streamed batch for a query of `typeIdentifiers`: `documentsPerBatch` when any
    /// is a document type, else `samplesPerBatch`. Every query that streams samples asks here.
    public static func samplesPerBatch(types typeIdentifiers: some Sequence<String>) -> Int {
        typeIdentifiers.contains { HKObjectType.type(forIdentifier: $0) is HKDocumentType } ? documentsPerBatch : samplesPerBatch
    }
}
