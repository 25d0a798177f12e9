import HealthModel

/// How healthctl shows a clinical record: its display name, then which FHIR resource it holds
/// and in which version. The resource's JSON itself is in `--json` and the exports.
enum ClinicalRecordText {
    /// "Observation/lab-1, FHIR 4.0.1 (R4)".
    static func detail(_ value: ClinicalRecordValue) -> String {
        let release = FHIRVersionNumber(value.fhirVersion).map { " (\($0.release))" } ?? ""
        return "\(value.resourceType)/\(value.identifier), FHIR \(value.fhirVersion)\(release)"
    }
}
