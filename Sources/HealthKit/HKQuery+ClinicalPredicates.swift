public import Foundation

/// HealthKit's clinical record predicates (iOS 12). healthd evaluates them on the records the
/// app may read; on another sample type one matches nothing.
extension HKQuery {
    /// Records whose FHIR resource has this type.
    public static func predicateForClinicalRecords(withFHIRResourceType resourceType: HKFHIRResourceType) -> NSPredicate {
        SampleTreePredicate(.fhirResource(resourceType: resourceType.rawValue, identifier: nil))
    }

    /// The record from `source` whose FHIR resource has this type and `id`.
    public static func predicateForClinicalRecords(from source: HKSource, fhirResourceType resourceType: HKFHIRResourceType,
                                                   identifier: String) -> NSPredicate {
        SampleTreePredicate(.and([.sources([source.bundleIdentifier]),
                                  .fhirResource(resourceType: resourceType.rawValue, identifier: identifier)]))
    }
}
