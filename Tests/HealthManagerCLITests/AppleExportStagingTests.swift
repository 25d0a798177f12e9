@testable import HealthManagerCLI
import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// Where `healthctl export`'s Apple format keeps its plaintext while it writes (session 18 storage
/// review, finding 6): export.xml and its files are the whole store's data, staged before they are
/// zipped. They were staged in `$TMPDIR/openhealth-export-…`, where a kill, an OOM kill or a power
/// loss left them outside the file the user chose. Now beside the destination, under the staged
/// file's hidden name; a finished export leaves only the zip. (Fails before: the staging folder was
/// in the temporary directory.)
@Suite(.timeLimit(.minutes(10))) struct AppleExportStagingTests {
    @Test func theUnzippedFilesAreStagedBesideTheDestinationAndGoneWhenFinished() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("export.zip")
        let writer = ExportXMLWriter(timeZone: .gmt, unit: { PreferredUnitDefaults.unit(for: $0, in: .metric) })
        let sink = try AppleExportSink(destination: destination, writer: writer, characteristics: [], exportDate: Date())
        let start = Date(timeIntervalSince1970: 1_714_543_200)
        try sink.add(SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue,
                                  startDate: start, endDate: start.addingTimeInterval(60), value: .quantity(1234, unit: "count")),
                     routes: [])
        let staged = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let filesFolder = try #require(staged.first { $0.hasPrefix(".export.zip.partial-") && $0.hasSuffix("-files") }, "\(staged)")
        var status = stat()
        #expect(stat(folder.appendingPathComponent(filesFolder).path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        try sink.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["export.zip"])
    }
}
