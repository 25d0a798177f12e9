public import Foundation

/// An `HKClinicalRecord`'s value: its display name and its FHIR resource, stored as given.
public struct ClinicalRecordValue: Hashable, Sendable {
    /// `HKClinicalRecord.displayName`: the record's name as the Health app shows it.
    public var displayName: String
    /// `HKFHIRResource.resourceType` raw value ("Observation"), one of `FHIRResourceRules.resourceTypes`.
    public var resourceType: String
    /// `HKFHIRResource.identifier`: the resource's `id` in its JSON.
    public var identifier: String
    /// `HKFHIRResource.data`: the resource's JSON exactly as the institution sent it.
    public var data: Data
    /// `HKFHIRResource.sourceURL`: where the institution serves it, when known.
    public var sourceURL: String?
    /// `HKFHIRVersion.stringRepresentation` ("4.0.1").
    public var fhirVersion: String

    public init(displayName: String, resourceType: String, identifier: String, data: Data,
                sourceURL: String?, fhirVersion: String) {
        self.displayName = displayName
        self.resourceType = resourceType
        self.identifier = identifier
        self.data = data
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
    }
}
