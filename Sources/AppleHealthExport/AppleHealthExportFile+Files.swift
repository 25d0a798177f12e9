public import Foundation
import ZIPFoundation
import HealthModel

/// The files export.xml names beside itself — clinical records' FHIR JSON, stored CDA documents
/// — read through one bounded path: only a file directly inside the one folder its element may
/// name, and at most `limit` bytes, counted while extracting (never taken from the archive's
/// header alone); a larger file is refused naming it.
extension AppleHealthExportFile {
    /// The bytes at `filePath` ("/clinical-records/Observation-1.json"), which must be a file in
    /// `folder`; `element` and `what` name it in messages.
    func boundedFile(at filePath: String, in folder: String, limit: Int, element: String, what: String,
                     line: Int) throws(ExportReadError) -> Data {
        let path = String(filePath.drop { $0 == "/" })
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0] == folder, parts[1] != "..", parts[1] != "." else {
            throw .invalidElement(file: xmlName, element: element, line: line,
                                  reason: "\(filePath.prefix(200)) is not a file in \(folder)/")
        }
        let tooLarge = ExportReadError.invalidElement(file: xmlName, element: element, line: line,
                                                      reason: "\(path): \(what) is larger than \(limit) bytes")
        switch layout {
        case let .zip(archive, xmlEntryPath):
            let xmlFolder = xmlEntryPath.split(separator: "/").dropLast().joined(separator: "/")
            let entryPath = xmlFolder.isEmpty ? path : xmlFolder + "/" + path
            guard let entry = archive[entryPath] else { throw .io(path: entryPath, reason: "the archive has no such file") }
            return try ExportSideFileReader.bytes(of: entry, in: archive, limit: limit, tooLarge: tooLarge)
        case let .file(xml):
            let file = xml.deletingLastPathComponent().appendingPathComponent(path)
            return try ExportSideFileReader.bytes(ofFileAt: file, limit: limit, tooLarge: tooLarge)
        }
    }

    /// The bytes of a stored CDA document at `filePath` ("/cda-documents/<UUID>.xml"), at most
    /// `DocumentRules.maximumBytes` — the size an app's save may have.
    public func document(at filePath: String, line: Int) throws(ExportReadError) -> Data {
        try boundedFile(at: filePath, in: ExportArchiveWriter.documentsFolder, limit: DocumentRules.maximumBytes,
                        element: "CDADocument", what: "the document", line: line)
    }

    /// Every file directly in `cda-documents/` whose name ends in `.xml`, as the path a
    /// `CDADocument`'s `FileReference` gives (`/cda-documents/<name>`), sorted: exports written
    /// before that element existed hold documents no element names (ImportPipeline+Documents).
    public func documentPaths() -> [String] {
        let folder = ExportArchiveWriter.documentsFolder
        let names: [String]
        switch layout {
        case let .zip(archive, xmlEntryPath):
            let xmlFolder = xmlEntryPath.split(separator: "/").dropLast().joined(separator: "/")
            let prefix = (xmlFolder.isEmpty ? "" : xmlFolder + "/") + folder + "/"
            names = archive.compactMap { entry in
                guard entry.type == .file, entry.path.hasPrefix(prefix) else { return nil }
                return String(entry.path.dropFirst(prefix.count))
            }
        case let .file(xml):
            let url = xml.deletingLastPathComponent().appendingPathComponent(folder)
            names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { name in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }
        }
        return names.filter { !$0.contains("/") && !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".xml") }
            .sorted().map { "/" + folder + "/" + $0 }
    }
}
