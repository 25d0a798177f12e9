public import Foundation
import ZIPFoundation

/// The ECG recordings of an export: the CSV files in `electrocardiograms/` beside export.xml.
extension AppleHealthExportFile {
    /// The ECG files' paths relative to the export.xml's folder, sorted (each is read with
    /// `electrocardiogram(at:)`, one at a time, so memory holds one recording).
    public func electrocardiogramPaths() -> [String] {
        switch layout {
        case let .zip(archive, xmlEntryPath):
            let folder = xmlEntryPath.split(separator: "/").dropLast().joined(separator: "/")
            let prefix = (folder.isEmpty ? "" : folder + "/") + "electrocardiograms/"
            return archive.compactMap { entry in
                guard entry.type == .file, entry.path.hasPrefix(prefix), entry.path.lowercased().hasSuffix(".csv") else { return nil }
                let name = entry.path.dropFirst(prefix.count)
                return name.contains("/") ? nil : "electrocardiograms/" + name
            }.sorted()
        case let .file(xml):
            let folder = xml.deletingLastPathComponent().appendingPathComponent("electrocardiograms")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.lowercased().hasSuffix(".csv") }.sorted().map { "electrocardiograms/" + $0 }
        }
    }

    /// The ECG in file `path` (one of `electrocardiogramPaths()`).
    public func electrocardiogram(at path: String) throws(ExportReadError) -> ExportElectrocardiogram {
        guard !path.split(separator: "/").contains("..") else {
            throw .invalidElement(file: xmlName, element: "ECG", line: 0, reason: "names a path outside the export: \(path)")
        }
        let data: Data
        let limit = ElectrocardiogramCSV.maximumFileBytes
        switch layout {
        case let .zip(archive, xmlEntryPath):
            let folder = xmlEntryPath.split(separator: "/").dropLast().joined(separator: "/")
            let entryPath = folder.isEmpty ? path : folder + "/" + path
            guard let entry = archive[entryPath] else { throw .io(path: entryPath, reason: "the archive has no such ECG file") }
            data = try ExportSideFileReader.bytes(of: entry, in: archive, limit: limit, tooLarge: .invalidElement(
                file: entryPath, element: "ECG", line: 0, reason: "larger than \(limit) bytes"))
        case let .file(xml):
            let file = xml.deletingLastPathComponent().appendingPathComponent(path)
            data = try ExportSideFileReader.bytes(ofFileAt: file, limit: limit, tooLarge: .invalidElement(
                file: file.path, element: "ECG", line: 0, reason: "larger than \(limit) bytes"))
        }
        return try ElectrocardiogramCSV.read(data, path: path)
    }
}
