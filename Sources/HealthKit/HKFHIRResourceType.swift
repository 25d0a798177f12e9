/// A FHIR resource's type, as HealthKit's `HKFHIRResourceType` (iOS 12): its raw value is the
/// FHIR `resourceType` string. healthd stores only the types listed here (`FHIRResourceRules`).
public struct HKFHIRResourceType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static let allergyIntolerance = HKFHIRResourceType("AllergyIntolerance")
    public static let condition = HKFHIRResourceType("Condition")
    public static let coverage = HKFHIRResourceType("Coverage")
    public static let diagnosticReport = HKFHIRResourceType("DiagnosticReport")
    public static let documentReference = HKFHIRResourceType("DocumentReference")
    public static let explanationOfBenefit = HKFHIRResourceType("ExplanationOfBenefit")
    public static let immunization = HKFHIRResourceType("Immunization")
    public static let medicationDispense = HKFHIRResourceType("MedicationDispense")
    public static let medicationOrder = HKFHIRResourceType("MedicationOrder")
    public static let medicationRequest = HKFHIRResourceType("MedicationRequest")
    public static let medicationStatement = HKFHIRResourceType("MedicationStatement")
    public static let observation = HKFHIRResourceType("Observation")
    public static let procedure = HKFHIRResourceType("Procedure")
}

/// A FHIR release, as HealthKit's `HKFHIRRelease` (iOS 14): DSTU2, R4, or unknown.
public struct HKFHIRRelease: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static let dstu2 = HKFHIRRelease("DSTU2")
    public static let r4 = HKFHIRRelease("R4")
    public static let unknown = HKFHIRRelease("Unknown")
}
