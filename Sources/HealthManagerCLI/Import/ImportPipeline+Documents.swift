import AppleHealthExport
import CDADocument
import Foundation
import HealthModel

/// The import's stored CDA documents: those a `CDADocument` element names, and the files under
/// `cda-documents/` that no element names — what this project's exports held before that element
/// existed. Either is checked as an app's save checks a document before it is sent.
extension ImportPipeline {
    /// A `CDADocument` and its file as a sample, the bytes checked as an app's save checks them
    /// (its SDK runs the same reader before sending): at most `DocumentRules.maximumBytes`, read
    /// bounded from the export, then `CDADocumentReader`, which refuses a document type
    /// declaration, a non-UTF-8 encoding and a malformed or too deep document. healthd applies
    /// `DocumentRules` again.
    func document(_ element: ExportDocument) throws(ImportRefusal) -> ImportedSample {
        let type = element.header.type
        guard let path = element.filePath else { throw ImportRefusal(type: type, reason: "a CDADocument that names no file") }
        let document = try checkedDocument(at: path, line: element.header.line, type: type)
        return try ExportConversion.sample(element, data: document.data)
    }

    /// Reads, after export.xml, each file in `cda-documents/` that no `CDADocument` element named,
    /// one at a time, as a document sample (`ExportConversion.unnamedDocument`: dated by its
    /// header's effectiveTime or the export's date, identified by its bytes, so a second import
    /// adds nothing); a file that cannot be read or is not a document an app could save is
    /// refused alone, with its name, and the import goes on.
    func acceptUnnamedDocuments(ship: (Batch) throws -> Void) throws {
        let type = HKDocumentTypeIdentifier.CDA.rawValue
        for path in file.documentPaths() where !namedDocumentPaths.contains(Self.documentKey(path)) {
            tallied.withLock { $0.countRead() }
            let imported: ImportedSample
            do throws(ImportRefusal) {
                let document = try checkedDocument(at: path, line: 0, type: type)
                imported = try ExportConversion.unnamedDocument(data: document.data, path: path, effectiveTime: document.effectiveTime,
                                                                exportDate: exportDate)
            } catch {
                tallied.withLock { $0.refused(error.type, error.reason) }
                continue
            }
            try add(imported, ship: ship)
        }
    }

    /// The bytes of the document file at `path`, read bounded and checked by `CDADocumentReader`,
    /// and its header's effectiveTime.
    private func checkedDocument(at path: String, line: Int, type: String) throws(ImportRefusal)
        -> (data: Data, effectiveTime: String?) {
        let data: Data
        do {
            data = try file.document(at: path, line: line)
        } catch {
            throw ImportRefusal(type: type, reason: "document file unreadable: \(error)")
        }
        do {
            return (data, try CDADocumentReader.readWithEffectiveTime(data).effectiveTime)
        } catch {
            throw ImportRefusal(type: type, reason: "\(path.drop { $0 == "/" }): not a CDA document an app could save (\(error))")
        }
    }

    /// A document path as both an element's `FileReference` and `documentPaths()` spell it:
    /// without leading slashes.
    static func documentKey(_ path: String) -> String {
        String(path.drop { $0 == "/" })
    }
}
