extension SampleRecord {
    /// The metadata key under which an imported correlation keeps its import identity. HealthKit
    /// allows no sync identifier on a correlation, so a re-import cannot upsert one; the import
    /// instead skips a correlation whose source already holds one of its type, dates and identity
    /// (`SampleRepository.importBatch`). A custom key: apps see it as any custom metadata.
    public static let importIdentityKey = "OpenHealthKitImportIdentity"
}
