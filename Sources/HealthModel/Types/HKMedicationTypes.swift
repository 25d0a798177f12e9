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
/// medications an app may read), never written by apps. As Apple's, a direct subclass of
/// `HKObjectType` — not an `HKSampleType` ("Inherits From HKObjectType",
/// developer.apple.com/documentation/healthkit/hkuserannotatedmedicationtype): it cannot be
/// passed where a sample type is expected, and code that switches on a type's class finds it
/// where Apple's SDK puts it. Apps see medications only as `HKUserAnnotatedMedication`.
///
/// The store keeps each medication as an object, which is what per-object grants name; that
/// object's type is `StoredUserAnnotatedMedicationType` (same identifier, equal to this one), the
/// registry's entry, so storage, validation and visibility treat it as every stored kind.
public final class HKUserAnnotatedMedicationType: HKObjectType, @unchecked Sendable {
    init() {
        super.init(identifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept)
    }

    /// Decodes by identifier (`HKObjectType.registered(decodedFrom:as:)`, which finds this class
    /// among the medication identifier's `ObjectTypeRegistry.faces`).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// How the store keeps a medication: an object of a sample type (with a start and end date, the
/// time it was added), so that per-object grants, the change feed and deletion handle it as any
/// stored object. Not Apple API: the SDK never hands it to an app (the public type is
/// `HKUserAnnotatedMedicationType`, an `HKObjectType`); `HKObjectType.type(forIdentifier:)` — the
/// lookup for identifiers from the wire — answers it.
package final class StoredUserAnnotatedMedicationType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept)
    }

    package required init?(coder: NSCoder) {
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
