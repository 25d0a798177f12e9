/// Names a clinical record type, as HealthKit's `HKClinicalTypeIdentifier` (iOS 12). The raw
/// values are HealthKit's strings (developer.apple.com/documentation/healthkit/hkclinicaltypeidentifier).
/// Like the other identifier structs, any string can be wrapped;
/// `HKObjectType.clinicalType(forIdentifier:)` says whether the type exists.
public struct HKClinicalTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static let allergyRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierAllergyRecord")
    public static let clinicalNoteRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierClinicalNoteRecord")
    public static let conditionRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierConditionRecord")
    public static let immunizationRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierImmunizationRecord")
    public static let labResultRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierLabResultRecord")
    public static let medicationRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierMedicationRecord")
    public static let procedureRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierProcedureRecord")
    public static let vitalSignRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierVitalSignRecord")
    public static let coverageRecord = HKClinicalTypeIdentifier("HKClinicalTypeIdentifierCoverageRecord")

    /// The identifiers HealthKit defines, in a stable order.
    public static let registered: [HKClinicalTypeIdentifier] = [
        .allergyRecord, .clinicalNoteRecord, .conditionRecord, .immunizationRecord, .labResultRecord,
        .medicationRecord, .procedureRecord, .vitalSignRecord, .coverageRecord,
    ]
}
