public import Foundation

/// A clinical record's FHIR resource, as HealthKit's `HKFHIRResource` (iOS 12): the JSON as the
/// institution sent it, with the fields HealthKit reads out of it. Only healthd makes these
/// (from stored records); apps cannot create them, as in HealthKit.
public final class HKFHIRResource: NSObject, NSCopying, @unchecked Sendable {
    public let resourceType: HKFHIRResourceType
    /// The resource's `id`.
    public let identifier: String
    /// The resource's JSON, byte for byte as imported.
    public let data: Data
    public let sourceURL: URL?
    public let fhirVersion: HKFHIRVersion

    init(_ value: ClinicalRecordValue) {
        resourceType = HKFHIRResourceType(value.resourceType)
        identifier = value.identifier
        data = value.data
        sourceURL = value.sourceURL.flatMap(URL.init(string:))
        // healthd stored only parseable versions; an unparseable one (a newer peer) reads as 0.0.0.
        fhirVersion = HKFHIRVersion(FHIRVersionNumber(value.fhirVersion) ?? FHIRVersionNumber(major: 0, minor: 0, patch: 0))
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}
