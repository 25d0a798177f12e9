public import Foundation
import ZIPFoundation

/// Why an export could not be written: the file and what went wrong with it.
public struct ExportWriteError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

/// Assembles `export.zip` as the Health app shares it: `apple_health_export/export.xml` and the
/// route files under `apple_health_export/workout-routes/`.
///
/// The XML and GPX files are staged in a private folder (mode 0700, removed when this object goes
/// away) as they are written — the XML through a 1 MiB buffer, so memory does not grow with the
/// export — and compressed into the zip (mode 0600) only by `finish`. healthctl stages beside the
/// destination (`init(stagingFolder:)`): the staged files are the whole store's data in plaintext,
/// and a kill must leave them only where the user asked for the export, not in `/tmp`.
public final class ExportArchiveWriter {
    public static let folder = "apple_health_export"
    private let staging: URL
    private let xml: FileHandle
    private var buffer = Data()
    private var routeNames: Set<String> = []
    private var electrocardiogramNames: Set<String> = []
    private var documentNames: Set<String> = []
    /// Clinical records' FHIR files under `clinical-records/`.
    private var clinicalRecordNames: Set<String> = []
    public private(set) var bytesWritten = 0

    /// Stages in a new folder in the temporary directory.
    public convenience init() throws(ExportWriteError) {
        try self.init(stagingFolder: FileManager.default.temporaryDirectory.appendingPathComponent("openhealth-export-\(UUID().uuidString)"))
    }

    /// Stages in `stagingFolder`, which must not exist yet (it is created 0700 and removed when
    /// this writer goes away).
    public init(stagingFolder: URL) throws(ExportWriteError) {
        staging = stagingFolder
        let routes = staging.appendingPathComponent(Self.folder + "/workout-routes")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ExportWriteError(path: staging.path, reason: "cannot create a private working folder (\(error.localizedDescription))")
        }
        let path = staging.appendingPathComponent(Self.folder + "/export.xml").path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            try? FileManager.default.removeItem(at: staging)
            throw ExportWriteError(path: path, reason: "cannot create the working copy of export.xml")
        }
        xml = handle
    }

    deinit {
        try? xml.close()
        try? FileManager.default.removeItem(at: staging)
    }

    /// Appends text to export.xml.
    public func write(_ text: String) throws(ExportWriteError) {
        buffer.append(contentsOf: text.utf8)
        bytesWritten += text.utf8.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Stores a route's GPX file and returns the path export.xml refers to it by.
    public func addRoute(fileName: String, gpx: String) throws(ExportWriteError) -> String {
        // Names come from dates and UUIDs, never from data; refuse anything else all the same.
        guard !fileName.contains("/"), !fileName.hasPrefix("."), routeNames.insert(fileName).inserted else {
            throw ExportWriteError(path: fileName, reason: "not a usable route file name")
        }
        let url = staging.appendingPathComponent(Self.folder + "/workout-routes/" + fileName)
        guard FileManager.default.createFile(atPath: url.path, contents: Data(gpx.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ExportWriteError(path: url.path, reason: "cannot write the route file")
        }
        return "/workout-routes/" + fileName
    }

    /// Stores an ECG's CSV file under `electrocardiograms/`, as the Health app does.
    public func addElectrocardiogram(fileName: String, csv: Data) throws(ExportWriteError) {
        guard !fileName.contains("/"), !fileName.hasPrefix("."), electrocardiogramNames.insert(fileName).inserted else {
            throw ExportWriteError(path: fileName, reason: "not a usable ECG file name")
        }
        let folder = staging.appendingPathComponent(Self.folder + "/electrocardiograms")
        let url = folder.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ExportWriteError(path: folder.path, reason: "cannot create the ECG folder (\(error.localizedDescription))")
        }
        guard FileManager.default.createFile(atPath: url.path, contents: csv, attributes: [.posixPermissions: 0o600]) else {
            throw ExportWriteError(path: url.path, reason: "cannot write the ECG file")
        }
    }

    /// Stores a CDA document sample's XML, byte for byte, as `cda-documents/<UUID>.xml`. Apple's
    /// export has no place for stored documents (its export_cda.xml is a summary it generates);
    /// this folder is OpenHealthKit's, named by a `CDADocument` element in export.xml. The name
    /// comes from the sample's UUID, never from its data; returns the path the element names.
    @discardableResult
    public func addDocument(uuid: UUID, xml document: Data) throws(ExportWriteError) -> String {
        let fileName = uuid.uuidString + ".xml"
        guard documentNames.insert(fileName).inserted else {
            throw ExportWriteError(path: fileName, reason: "the document was already written")
        }
        let folder = staging.appendingPathComponent(Self.folder + "/" + Self.documentsFolder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ExportWriteError(path: folder.path, reason: "cannot create the document folder (\(error.localizedDescription))")
        }
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.createFile(atPath: url.path, contents: document, attributes: [.posixPermissions: 0o600]) else {
            throw ExportWriteError(path: url.path, reason: "cannot write the document file")
        }
        return "/" + Self.documentsFolder + "/" + fileName
    }

    /// Where `addDocument` puts documents inside `apple_health_export/`.
    public static let documentsFolder = "cda-documents"

    /// Stores a clinical record's FHIR JSON under `clinical-records/`, as the Health app does;
    /// returns false when the name is taken (the caller picks another).
    public func addClinicalResource(fileName: String, data: Data) throws(ExportWriteError) -> Bool {
        guard !fileName.contains("/"), !fileName.hasPrefix(".") else {
            throw ExportWriteError(path: fileName, reason: "not a usable clinical record file name")
        }
        let folder = staging.appendingPathComponent(Self.folder + "/" + AppleHealthExportFile.clinicalRecordsFolder)
        let url = folder.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ExportWriteError(path: folder.path, reason: "cannot create the clinical records folder (\(error.localizedDescription))")
        }
        guard clinicalRecordNames.insert(fileName).inserted else { return false }
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ExportWriteError(path: url.path, reason: "cannot write the clinical record file")
        }
        return true
    }

    /// Compresses everything into a new zip at `zipURL`, mode 0600.
    public func finish(writingTo zipURL: URL) throws(ExportWriteError) {
        try flush()
        do {
            try xml.synchronize()
            // An empty archive (its end-of-central-directory record alone) created with mode 0600
            // and then updated, so the file is never readable by others, not even for a moment.
            let empty = Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))
            guard FileManager.default.createFile(atPath: zipURL.path, contents: empty, attributes: [.posixPermissions: 0o600]) else {
                throw ExportWriteError(path: zipURL.path, reason: "cannot create the archive")
            }
            let archive = try Archive(url: zipURL, accessMode: .update)
            try archive.addEntry(with: Self.folder + "/export.xml", relativeTo: staging, compressionMethod: .deflate)
            for name in routeNames.sorted() {
                try archive.addEntry(with: Self.folder + "/workout-routes/" + name, relativeTo: staging, compressionMethod: .deflate)
            }
            for name in electrocardiogramNames.sorted() {
                try archive.addEntry(with: Self.folder + "/electrocardiograms/" + name, relativeTo: staging, compressionMethod: .deflate)
            }
            for name in documentNames.sorted() {
                try archive.addEntry(with: Self.folder + "/" + Self.documentsFolder + "/" + name, relativeTo: staging,
                                     compressionMethod: .deflate)
            }
            for name in clinicalRecordNames.sorted() {
                try archive.addEntry(with: Self.folder + "/" + AppleHealthExportFile.clinicalRecordsFolder + "/" + name,
                                     relativeTo: staging, compressionMethod: .deflate)
            }
        } catch let error as ExportWriteError {
            throw error
        } catch {
            throw ExportWriteError(path: zipURL.path, reason: "cannot write the archive (\(error.localizedDescription))")
        }
        // The plaintext copies go as soon as the zip holds them, not when this writer is released.
        try? xml.close()
        try? FileManager.default.removeItem(at: staging)
    }

    private func flush() throws(ExportWriteError) {
        guard !buffer.isEmpty else { return }
        do {
            try xml.write(contentsOf: buffer)
        } catch {
            throw ExportWriteError(path: "export.xml", reason: "cannot write (\(error.localizedDescription))")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
