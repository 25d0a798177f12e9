@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// Documents in exports this project wrote before the `CDADocument` element existed: files
/// `cda-documents/<UUID>.xml` that no element names (ExportArchiveWriter.addDocument, commit
/// 311aa25). Listed from the folder, dated by the document's effectiveTime or the export's date,
/// identified by their bytes alone.
@Suite(.timeLimit(.minutes(10))) struct UnnamedDocumentTests {
    static let exportDate = Date(timeIntervalSince1970: 1_717_228_800)  // 2024-06-01 08:00:00Z

    static func document(_ title: String) -> Data {
        Data("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>\(title)</title></ClinicalDocument>".utf8)
    }

    /// HL7 TS at each precision CDA headers use; a missing zone is UTC, a missing time midnight.
    @Test func readsEffectiveTimeAtEachPrecision() {
        let cases: [(String, TimeInterval)] = [
            ("20160523182721+0100", 1_464_024_441),  // Apple's export_cda.xml
            ("20160523182721.123-0230", 1_464_037_041),
            ("20160523182721", 1_464_028_041),
            ("201605231827", 1_464_028_020),
            ("2016052318+0000", 1_464_026_400),
            ("20160523", 1_463_961_600),
            ("20240229", 1_709_164_800),
        ]
        for (text, seconds) in cases {
            #expect(ExportConversion.cdaTime(text) == Date(timeIntervalSince1970: seconds), "\(text)")
        }
    }

    /// What is not a date is nil (the export's date is used instead), never a rolled-over date.
    @Test func refusesWhatIsNotADate() {
        for text in ["", "2016", "201605231", "20161323", "20230229", "20160523246000", "20160523182721+01",
                     "20160523182721Z", "2016-05-23", "20160523182721.+0100", "201605231827.5",
                     String(repeating: "1", count: 41), "２０１６０５２３"] {
            #expect(ExportConversion.cdaTime(text) == nil, "\(text)")
        }
    }

    /// Dated by effectiveTime when it reads, else by the export; the identity is the bytes alone,
    /// so the same document from an export written on another day is the same sample.
    @Test func identityIsTheContentAndTheDateFallsBackToTheExport() throws {
        let bytes = Self.document("Visit")
        let dated = try ExportConversion.unnamedDocument(data: bytes, path: "/cda-documents/a.xml", effectiveTime: "20160523",
                                                         exportDate: Self.exportDate)
        #expect(dated.record.startDate == Date(timeIntervalSince1970: 1_463_961_600) && dated.record.endDate == dated.record.startDate)
        let undated = try ExportConversion.unnamedDocument(data: bytes, path: "/cda-documents/b.xml", effectiveTime: "garbage",
                                                           exportDate: Self.exportDate)
        #expect(undated.record.startDate == Self.exportDate)
        let later = try ExportConversion.unnamedDocument(data: bytes, path: "/cda-documents/c.xml", effectiveTime: nil,
                                                         exportDate: Self.exportDate.addingTimeInterval(86_400))
        let sync = dated.record.metadata[HKMetadataKeySyncIdentifier]
        #expect(sync != nil && undated.record.metadata[HKMetadataKeySyncIdentifier] == sync
                && later.record.metadata[HKMetadataKeySyncIdentifier] == sync)
        let other = try ExportConversion.unnamedDocument(data: Self.document("Visit 2"), path: "/cda-documents/a.xml", effectiveTime: nil,
                                                         exportDate: Self.exportDate)
        #expect(other.record.metadata[HKMetadataKeySyncIdentifier] != sync)
        #expect(dated.sourceName == ExportConversion.unnamedDocumentSource)
        #expect(throws: ImportRefusal.self) {
            try ExportConversion.unnamedDocument(data: bytes, path: "/cda-documents/a.xml", effectiveTime: nil, exportDate: nil)
        }
    }

    /// Only `.xml` files directly in `cda-documents/` are listed, from a folder and from a zip
    /// the old exporter wrote (ExportArchiveWriter, whose document naming is unchanged).
    @Test func listsTheFolderAndTheZip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unnamed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["cda-documents/B.xml", "cda-documents/a.XML", "cda-documents/notes.txt", "cda-documents/sub/c.xml",
                     "cda-documents/.hidden.xml", "d.xml"]
        for name in names {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.document(name).write(to: url)
        }
        let xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-06-01 10:00:00 +0200\"/>\n</HealthData>\n"
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        #expect(try AppleHealthExportFile(url: folder).documentPaths() == ["/cda-documents/B.xml", "/cda-documents/a.XML"])

        let writer = try ExportArchiveWriter()
        try writer.write(xml)
        let uuid = UUID()
        try writer.addDocument(uuid: uuid, xml: Self.document("Zipped"))
        let zip = folder.appendingPathComponent("export.zip")
        try writer.finish(writingTo: zip)
        let file = try AppleHealthExportFile(url: zip)
        #expect(file.documentPaths() == ["/cda-documents/\(uuid.uuidString).xml"])
        #expect(try file.document(at: "/cda-documents/\(uuid.uuidString).xml", line: 0) == Self.document("Zipped"))
    }
}
