public import Foundation

/// What a clinical record must be before healthd stores it, in one place: the broker's
/// validator, the SDK's `HKFHIRVersion` parser and the export importer all ask here.
///
/// The resource is kept byte for byte as given (`HKFHIRResource.data` hands back what the
/// institution sent), so checking it is parsing only: bounded in size before anything is read,
/// UTF-8, a JSON object whose `resourceType` and `id` are the record's. Parsing (`FHIRResourceJSON`)
/// is apart from these decisions.
public enum FHIRResourceRules {
    /// The largest resource stored, in bytes. Real FHIR resources are a few kilobytes; a clinical
    /// note with an inline attachment can be larger. 256 KiB keeps `clinicalRecordsPerBatch`
    /// whole records inside one wire frame.
    public static let maxResourceBytes = 256 * 1024
    public static let maxDisplayNameBytes = 1024
    public static let maxIdentifierBytes = 256
    public static let maxSourceURLBytes = 2048
    public static let maxFHIRVersionBytes = 32

    /// `HKFHIRResourceType` raw values (developer.apple.com/documentation/healthkit/hkfhirresourcetype).
    public static let resourceTypes: Set<String> = [
        "AllergyIntolerance", "Condition", "Coverage", "DiagnosticReport", "DocumentReference",
        "ExplanationOfBenefit", "Immunization", "MedicationDispense", "MedicationOrder",
        "MedicationRequest", "MedicationStatement", "Observation", "Procedure",
    ]

    /// Refuses a record HealthKit could not hold. Messages name the field and the bound, never
    /// the record's content.
    public static func check(_ value: ClinicalRecordValue) throws(HKError) {
        try bounded("displayName", value.displayName, max: maxDisplayNameBytes, allowEmpty: false)
        try bounded("identifier", value.identifier, max: maxIdentifierBytes, allowEmpty: false)
        if let url = value.sourceURL { try bounded("sourceURL", url, max: maxSourceURLBytes, allowEmpty: false) }
        guard FHIRVersionNumber(value.fhirVersion) != nil else {
            throw HKError(.errorInvalidArgument, "fhirVersion must be major.minor.patch (e.g. 4.0.1)")
        }
        guard resourceTypes.contains(value.resourceType) else {
            throw HKError(.errorInvalidArgument, "resourceType is not an HKFHIRResourceType (known: \(resourceTypes.sorted().joined(separator: ", ")))")
        }
        let json: FHIRResourceJSON
        do {
            json = try FHIRResourceJSON(value.data)
        } catch {
            throw HKError(.errorInvalidArgument, "the FHIR resource \(error.description)")
        }
        guard json.resourceType == value.resourceType else {
            throw HKError(.errorInvalidArgument, "the FHIR resource's resourceType does not match the record's (\(value.resourceType))")
        }
        guard json.id == value.identifier else {
            throw HKError(.errorInvalidArgument, "the FHIR resource's id does not match the record's identifier")
        }
    }

    private static func bounded(_ field: String, _ text: String, max: Int, allowEmpty: Bool) throws(HKError) {
        guard allowEmpty || !text.isEmpty else { throw HKError(.errorInvalidArgument, "clinical record \(field) is empty") }
        guard text.utf8.count <= max else {
            throw HKError(.errorInvalidArgument, "clinical record \(field) is longer than \(max) bytes")
        }
        guard !text.utf8.contains(0) else { throw HKError(.errorInvalidArgument, "clinical record \(field) contains a NUL byte") }
    }
}
