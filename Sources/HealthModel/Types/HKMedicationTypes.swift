public import Foundation

/// The dose event type, as HealthKit's `HKMedicationDoseEventType` (iOS 26,
/// `HKObjectType.medicationDoseEventType()`). Read-only for apps (`AppWritability`); an app reads
/// the dose events of the medications the user granted it (`PerObjectAuthorization`).
public final class HKMedicationDoseEventType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKMedicationDoseEventTypeIdentifierMedicationDoseEvent)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// The medication type, as HealthKit's `HKUserAnnotatedMedicationType` (iOS 26,
/// `HKObjectType.userAnnotatedMedicationType()`): read per object (the user picks which of their
/// medications an app may read), never written by apps. Here it is a sample type because each
/// medication is stored as an object, which is what per-object grants name; apps never see a
/// medication as an `HKSample` (the SDK hands out `HKUserAnnotatedMedication`).
public final class HKUserAnnotatedMedicationType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// The dose event type's identifier (spec/healthkit/string_constants.tsv; the constant holds its
/// own name, as for the other type identifiers).
public let HKMedicationDoseEventTypeIdentifierMedicationDoseEvent = "HKMedicationDoseEventTypeIdentifierMedicationDoseEvent"
/// The medication type's identifier (spec/healthkit/string_constants.tsv).
public let HKDataTypeIdentifierUserAnnotatedMedicationConcept = "HKDataTypeIdentifierUserAnnotatedMedicationConcept"

extension HKObjectType {
    /// HealthKit's `medicationDoseEventType()` (iOS 26).
    public static func medicationDoseEventType() -> HKMedicationDoseEventType { ObjectTypeRegistry.medicationDoseEvent }
    /// HealthKit's `userAnnotatedMedicationType()` (iOS 26).
    public static func userAnnotatedMedicationType() -> HKUserAnnotatedMedicationType { ObjectTypeRegistry.userAnnotatedMedication }
}
