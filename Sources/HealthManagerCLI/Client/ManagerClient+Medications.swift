public import HealthModel
public import HealthWire

/// The user's medications (iOS 26's medications, entered here as in Apple's Health app).
extension ManagerClient {
    /// Every medication the user tracks, in the order they were added.
    public func medications() async throws(HealthCtlError) -> [SampleRecord] {
        var found: [SampleRecord] = []
        let spec = SampleQuerySpec(typeIdentifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept,
                                   sort: [SampleSort(.startDate, ascending: true)])
        for try await batch in querySamples(spec) {
            found += batch.samples
        }
        return found
    }

    /// Moves the medication with `conceptIdentifier` into the archive, or (`archived` false) out of it.
    public func archiveMedication(_ conceptIdentifier: String, archived: Bool) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.archiveMedication, MedicationArchiveRequest(conceptIdentifier: conceptIdentifier, archived: archived),
                                              action: archived ? "archive the medication" : "restore the medication")
    }
}
