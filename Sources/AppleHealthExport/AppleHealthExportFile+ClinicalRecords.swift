public import Foundation
import HealthModel

/// The FHIR resources of an export's clinical records: JSON files under `clinical-records/`
/// beside export.xml, each named by a `ClinicalRecord`'s `resourceFilePath`.
extension AppleHealthExportFile {
    /// The folder Apple writes clinical records' resources to, relative to export.xml's folder.
    public static let clinicalRecordsFolder = "clinical-records"

    /// The bytes of the resource at `resourceFilePath` ("/clinical-records/Observation-1.json"),
    /// at most `FHIRResourceRules.maxResourceBytes` of them (`boundedFile`).
    public func clinicalResource(at resourceFilePath: String, line: Int) throws(ExportReadError) -> Data {
        try boundedFile(at: resourceFilePath, in: Self.clinicalRecordsFolder, limit: FHIRResourceRules.maxResourceBytes,
                        element: "ClinicalRecord", what: "the FHIR resource", line: line)
    }
}
