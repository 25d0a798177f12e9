public import Foundation

/// A clinical record, as HealthKit's `HKClinicalRecord` (iOS 12): one FHIR resource from a
/// healthcare institution with the name the Health app shows. Read-only: apps cannot create or
/// save one (healthd refuses a share request naming a clinical type, as HealthKit does);
/// records arrive by `healthctl import` of an Apple Health export. Reading needs the
/// `health-records` entitlement and read permission per type.
public final class HKClinicalRecord: HKSample, @unchecked Sendable {
    public let clinicalType: HKClinicalType

    public let displayName: String
    /// Optional in HealthKit's signature; always set for a stored record.
    public let fhirResource: HKFHIRResource?

    /// Reads an archive (`ArchivedSample`).
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKClinicalType,
              case let .clinicalRecord(value) = archived.record.value else { return nil }
        self.init(type: type, fetched: archived.record, value, parts: archived.parts)
    }

    init(type: HKClinicalType, fetched record: SampleRecord, _ value: ClinicalRecordValue, parts: FetchedObjectParts) {
        clinicalType = type
        displayName = value.displayName
        fhirResource = HKFHIRResource(value)
        super.init(type: type, fetched: record, parts: parts)
    }
}
