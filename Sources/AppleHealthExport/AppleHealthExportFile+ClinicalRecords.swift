public import Foundation
import HealthModel
import ZIPFoundation

/// The FHIR resources of an export's clinical records: JSON files under `clinical-records/`
/// beside export.xml, each named by a `ClinicalRecord`'s `resourceFilePath`.
extension AppleHealthExportFile {
    /// The folder Apple writes clinical records' resources to, relative to export.xml's folder.
    public static let clinicalRecordsFolder = "clinical-records"

    /// The bytes of the resource at `resourceFilePath` ("/clinical-records/Observation-1.json").
    /// Only files inside `clinical-records/` are read, and at most
    /// `FHIRResourceRules.maxResourceBytes` of them (counted while extracting, not taken from the
    /// archive's header); a larger file is refused naming it.
    public func clinicalResource(at resourceFilePath: String, line: Int) throws(ExportReadError) -> Data {
        let path = String(resourceFilePath.drop { $0 == "/" })
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0] == Self.clinicalRecordsFolder, !parts.contains("..") else {
            throw .invalidElement(file: xmlName, element: "ClinicalRecord", line: line,
                                  reason: "resourceFilePath \(resourceFilePath.prefix(200)) is not a file in \(Self.clinicalRecordsFolder)/")
        }
        let limit = FHIRResourceRules.maxResourceBytes
        let tooLarge = ExportReadError.invalidElement(file: xmlName, element: "ClinicalRecord", line: line,
                                                      reason: "\(path): the FHIR resource is larger than \(limit) bytes")
        switch layout {
        case let .zip(archive, xmlEntryPath):
            let folder = xmlEntryPath.split(separator: "/").dropLast().joined(separator: "/")
            let entryPath = folder.isEmpty ? path : folder + "/" + path
            guard let entry = archive[entryPath] else { throw .io(path: entryPath, reason: "the archive has no such clinical record file") }
            guard entry.uncompressedSize <= UInt64(limit) else { throw tooLarge }
            var data = Data()
            do {
                _ = try archive.extract(entry, consumer: { chunk in
                    guard data.count + chunk.count <= limit else { throw tooLarge }
                    data.append(chunk)
                })
            } catch let error as ExportReadError {
                throw error
            } catch {
                throw .io(path: entryPath, reason: "cannot read it from the archive (\(error))")
            }
            return data
        case let .file(xml):
            let file = xml.deletingLastPathComponent().appendingPathComponent(path)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            guard size <= limit else { throw tooLarge }
            do {
                let data = try Data(contentsOf: file)
                guard data.count <= limit else { throw tooLarge }
                return data
            } catch let error as ExportReadError {
                throw error
            } catch {
                throw .io(path: path, reason: "cannot read the clinical record file (\(error.localizedDescription))")
            }
        }
    }
}
