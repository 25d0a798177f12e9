public import Foundation
import ZIPFoundation

/// An Apple Health export on disk — `export.zip` as the Health app shares it, the folder it
/// unpacks to, or an `export.xml` — read as a stream of `ExportItem`s.
///
/// The XML is first copied, sanitized (`ExportSanitizer`), into a working copy
/// (`ImportWorkingCopy`: beside the store's folder, unlinked as soon as it is created, so it ends
/// with this process however the process ends) — straight out of the zip, without unpacking
/// anything else — and then parsed from that copy by libxml2's SAX2 push parser, so
/// memory stays flat for a 51 MB or a 1 GB export alike. Route GPX files are read from the zip
/// or the folder when asked for.
public final class AppleHealthExportFile {
    public let url: URL
    /// The export.xml's size in bytes and its number of lines (for progress).
    public private(set) var xmlBytes = 0
    public private(set) var xmlLines = 0
    /// Elements the reader does not import, by name (clinical records, …).
    public private(set) var skippedElements: [String: Int] = [:]

    let layout: Layout
    private let workingCopy: ImportWorkingCopy

    enum Layout {
        case zip(Archive, xmlEntryPath: String)
        /// The export.xml (any name) and the folder its route paths are relative to.
        case file(URL)
    }

    /// `workFolder`: where the working copy is made (`ImportWorkingCopy.defaultFolder`, beside
    /// the default store folder, unless a test gives another).
    public init(url: URL, workFolder: URL? = nil) throws(ExportReadError) {
        self.url = url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .notAnExport(path: url.path, reason: "no such file or folder")
        }
        if isDirectory.boolValue {
            let candidates = [url.appendingPathComponent("export.xml"),
                              url.appendingPathComponent("apple_health_export/export.xml")]
            guard let xml = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw .notAnExport(path: url.path, reason: "the folder holds no export.xml (nor apple_health_export/export.xml)")
            }
            layout = .file(xml)
        } else if url.pathExtension.lowercased() == "zip" {
            // Before ZIPFoundation sees the file: it trusts the directory's offsets and sizes
            // and traps on one past Int64.max (`ZipBoundsCheck`).
            try ZipBoundsCheck.check(url)
            let archive: Archive
            do {
                archive = try Archive(url: url, accessMode: .read)
            } catch {
                throw .notAnExport(path: url.path, reason: "not a readable zip archive (\(error))")
            }
            guard let entry = archive.first(where: { entry in
                entry.type == .file && (entry.path == "export.xml" || entry.path.hasSuffix("/export.xml"))
            }) else {
                throw .notAnExport(path: url.path, reason: "the archive holds no export.xml")
            }
            layout = .zip(archive, xmlEntryPath: entry.path)
        } else {
            layout = .file(url)
        }
        workingCopy = try ImportWorkingCopy(in: workFolder ?? ImportWorkingCopy.defaultFolder)
        try sanitize()
    }

    /// Reads every item in document order. `handler` may throw to stop; `progress` is called now
    /// and then with the line reached (of `xmlLines`).
    public func read(progress: ((Int) -> Void)? = nil, _ handler: (ExportItem) throws -> Void) throws {
        try withoutActuallyEscaping(handler) { handler in
            let reader = ExportXMLReader(fileName: xmlName, progress: progress, handler: handler)
            defer { skippedElements = reader.skipped }
            try reader.read(path: workingCopy.readablePath)
        }
    }

    /// The locations of a route's GPX file, by the `FileReference` path the export gives
    /// (`/workout-routes/route_….gpx`), relative to the export.xml's folder.
    public func routeLocations(at path: String) throws(ExportReadError) -> [ExportLocation] {
        let relative = path.drop { $0 == "/" }
        guard !relative.split(separator: "/").contains("..") else {
            throw .invalidElement(file: xmlName, element: "FileReference", line: 0, reason: "names a path outside the export: \(path)")
        }
        let data: Data
        let limit = GPXRouteReader.maximumFileBytes
        switch layout {
        case let .zip(archive, xmlEntryPath):
            let folder = xmlEntryPath.split(separator: "/").dropLast().joined(separator: "/")
            let entryPath = folder.isEmpty ? String(relative) : folder + "/" + relative
            guard let entry = archive[entryPath] else { throw .io(path: entryPath, reason: "the archive has no such route file") }
            data = try ExportSideFileReader.bytes(of: entry, in: archive, limit: limit, tooLarge: .invalidElement(
                file: entryPath, element: "FileReference", line: 0, reason: "the route file is larger than \(limit) bytes"))
        case let .file(xml):
            let file = xml.deletingLastPathComponent().appendingPathComponent(String(relative))
            data = try ExportSideFileReader.bytes(ofFileAt: file, limit: limit, tooLarge: .invalidElement(
                file: file.path, element: "FileReference", line: 0, reason: "the route file is larger than \(limit) bytes"))
        }
        return try GPXRouteReader.read(data, fileName: String(relative))
    }

    var xmlName: String {
        switch layout {
        case let .zip(_, xmlEntryPath): url.lastPathComponent + ":" + xmlEntryPath
        case let .file(xml): xml.path
        }
    }

    /// Streams the export.xml through the sanitizer into the private copy.
    private func sanitize() throws(ExportReadError) {
        let output = workingCopy.handle
        var sanitizer = ExportSanitizer()
        // The copy is as large as export.xml: what the archive declares, which must fit where
        // the copy goes (a tmpfs /tmp is memory) and which the inflated bytes may not pass.
        var declared = UInt64.max
        switch layout {
        case let .zip(archive, xmlEntryPath): declared = archive[xmlEntryPath]?.uncompressedSize ?? 0
        case let .file(xml): declared = UInt64((try? FileManager.default.attributesOfItem(atPath: xml.path)[.size] as? Int) ?? 0)
        }
        try Self.checkRoom(for: declared, in: workingCopy.folder)
        // Throws what it found as it is: ZIPFoundation passes a consumer's error through.
        let consume: (Data) throws -> Void = { chunk in
            self.xmlBytes += chunk.count
            if case let .zip(_, xmlEntryPath) = self.layout, UInt64(self.xmlBytes) > declared {
                throw ExportReadError.inflatesPastDeclaredSize(archive: self.url.path, entry: xmlEntryPath, declaredBytes: declared)
            }
            try output.write(contentsOf: sanitizer.process(chunk))
        }
        do {
            switch layout {
            case let .zip(archive, xmlEntryPath):
                guard let entry = archive[xmlEntryPath] else { throw ExportReadError.io(path: xmlEntryPath, reason: "vanished from the archive") }
                let checksum = try archive.extract(entry, bufferSize: 1 << 16, consumer: consume)
                guard checksum == entry.checksum else {
                    throw ExportReadError.io(path: xmlEntryPath, reason: "damaged in the archive: its CRC-32 does not match (the export was cut or altered)")
                }
            case let .file(xml):
                guard let input = FileHandle(forReadingAtPath: xml.path) else {
                    throw ExportReadError.io(path: xml.path, reason: "cannot open it for reading")
                }
                defer { try? input.close() }
                while let chunk = try input.read(upToCount: 1 << 16), !chunk.isEmpty { try consume(chunk) }
            }
            try sanitizer.finish()
        } catch let error as ExportReadError {
            throw error
        } catch let error as ExportSanitizer.SanitizerError {
            throw .notAnExport(path: url.path, reason: Self.describe(error))
        } catch {
            throw .io(path: url.path, reason: "\(error)")
        }
        xmlLines = sanitizer.lines + 1
    }

    /// Refuses a working copy of `bytes` where fewer are free (keeping 64 MiB for everyone
    /// else), naming both and the fix, instead of filling the disk (or, on a tmpfs, memory).
    private static func checkRoom(for bytes: UInt64, in folder: URL) throws(ExportReadError) {
        var space = statvfs()
        guard statvfs(folder.path, &space) == 0 else { return }
        let free = UInt64(space.f_bavail) * UInt64(space.f_frsize)
        let margin: UInt64 = 64 << 20
        guard bytes <= free, free - bytes >= margin else {
            throw .io(path: folder.path, reason: "the import's working copy of export.xml needs \(bytes >> 20) MiB and "
                      + "\(free >> 20) MiB are free there; free some space on that file system")
        }
    }

    private static func describe(_ error: ExportSanitizer.SanitizerError) -> String {
        switch error {
        case let .noRootElement(searched): "no <HealthData> element in its first \(searched) bytes"
        }
    }
}
