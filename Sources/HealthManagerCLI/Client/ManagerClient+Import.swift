public import HealthWire

extension ManagerClient {
    /// Stores one batch of a foreign source's samples (validated by healthd as an app's save).
    public func importSamples(_ batch: ImportBatch) async throws(HealthCtlError) -> ImportOutcome {
        try await unary(.importSamples, batch, action: "import \(batch.samples.count) samples from \(batch.origin)")
    }

    /// The same, for a batch packed as it was read (`ImportRequestBuilder`).
    public func importSamples(_ batch: ImportRequestBuilder) async throws(HealthCtlError) -> ImportOutcome {
        try await unary(.importSamples, bytes: batch.wireBytes(), action: "import \(batch.sampleCount) samples from \(batch.origin)")
    }
}
