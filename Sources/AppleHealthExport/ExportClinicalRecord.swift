public import Foundation

/// A `ClinicalRecord` element (healthkit11.dtd and later): who sent the record and where its
/// FHIR JSON is (`resourceFilePath`, e.g. `/clinical-records/Observation-1.json`, relative to
/// the folder holding export.xml). Values as the export spells them.
public struct ExportClinicalRecord: Sendable, Equatable {
    /// `HKClinicalTypeIdentifierLabResultRecord` and the like.
    public var type: String
    /// The FHIR resource's `id`.
    public var identifier: String
    /// The institution the record came from.
    public var sourceName: String?
    public var sourceURL: String?
    /// "4.0.1".
    public var fhirVersion: String
    public var receivedDate: Date
    public var resourceFilePath: String
    /// Where the element starts in the file, for messages about it.
    public var line: Int

    public init(type: String, identifier: String, sourceName: String?, sourceURL: String?, fhirVersion: String,
                receivedDate: Date, resourceFilePath: String, line: Int) {
        self.type = type
        self.identifier = identifier
        self.sourceName = sourceName
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
        self.receivedDate = receivedDate
        self.resourceFilePath = resourceFilePath
        self.line = line
    }
}
