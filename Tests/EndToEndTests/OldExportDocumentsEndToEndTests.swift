import AppleHealthExport
import Foundation
import HealthModel
import Testing
import TestSupport

/// `healthctl import` of exports this project wrote before the `CDADocument` element existed:
/// such an export.zip holds each stored document as `cda-documents/<UUID>.xml` and no element
/// names it. The fixture is written the old way — `ExportArchiveWriter.addDocument`, whose
/// naming is the old exporter's (commit 311aa25), and an export.xml without `CDADocument` — and
/// imported through a real healthd.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OldExportDocumentsEndToEndTests {
    static func document(_ title: String, effectiveTime: String? = nil) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3">
        \(effectiveTime.map { " <effectiveTime value=\"\($0)\"/>\n" } ?? "") <title>\(title)</title>
        </ClinicalDocument>

        """
    }

    /// export.xml as the old exporter wrote it around documents: the export's date and a record.
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-06-01 10:00:00 +0200"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-05-01 09:00:00 +0200" endDate="2024-05-01 09:10:00 +0200" value="120"/>
        </HealthData>

        """

    func writeZip(in broker: BrokerProcess, name: String, xml: String, documents: [String]) throws -> String {
        let writer = try ExportArchiveWriter()
        try writer.write(xml)
        for text in documents {
            try writer.addDocument(uuid: UUID(), xml: Data(text.utf8))
        }
        let zip = broker.root + "/" + name + ".zip"
        try writer.finish(writingTo: URL(fileURLWithPath: zip))
        return zip
    }

    /// The documents' titles and start dates in the store, sorted.
    func documents(in broker: BrokerProcess) async throws -> [String] {
        let listed = try await broker.healthctl(["samples", HKDocumentTypeIdentifier.CDA.rawValue, "--json"])
        #expect(listed.status == 0, "\(listed)")
        return try listed.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let document = object["document"] as? [String: Any]
            return "\(document?["title"] ?? object) \(object["start"] ?? "") \(object["end"] ?? "")"
        }.sorted()
    }

    /// Each document is imported, dated by its effectiveTime or else the export's date; one that
    /// an app could not save (a document type declaration) is refused naming its file; importing
    /// the same file again adds nothing.
    @Test func documentsNoElementNamesAreImportedOnce() async throws {
        let broker = try BrokerProcess()
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE ClinicalDocument [<!ENTITY a \"a\">]>\n"
            + "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>&a;</title></ClinicalDocument>\n"
        let zip = try writeZip(in: broker, name: "old", xml: Self.xml,
                               documents: [Self.document("Visit A", effectiveTime: "20240505120000+0200"), Self.document("Visit B"), doctype])
        let first = try await broker.healthctl(["import", zip, "--characteristics", "no"])
        #expect(first.status == 0, "\(first)\n\(broker.log)")
        #expect(first.stdout.contains("4 records read; samples and routes: 3 imported, 0 already there, 1 refused."), "\(first.stdout)")
        #expect(first.stdout.contains("document type declaration") || first.stdout.lowercased().contains("doctype"), "\(first.stdout)")
        let expected = ["Visit A 2024-05-05T10:00:00.000Z 2024-05-05T10:00:00.000Z",
                        "Visit B 2024-06-01T08:00:00.000Z 2024-06-01T08:00:00.000Z"]
        #expect(try await documents(in: broker) == expected)

        let again = try await broker.healthctl(["import", zip, "--characteristics", "no"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains(": 0 imported, 3 already there, 1 refused."), "\(again.stdout)")
        #expect(try await documents(in: broker) == expected)
    }

    /// In an export that has the element, the file it names is read once, with the element's
    /// dates; only a file no element names is read as an old export's.
    @Test func aFileAnElementNamesIsNotReadAgainAsUnnamed() async throws {
        let broker = try BrokerProcess()
        let folder = URL(fileURLWithPath: broker.root).appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cda-documents"), withIntermediateDirectories: true)
        try Data(Self.document("Named").utf8).write(to: folder.appendingPathComponent("cda-documents/named.xml"))
        try Data(Self.document("Unnamed").utf8).write(to: folder.appendingPathComponent("cda-documents/unnamed.xml"))
        let xml = Self.xml.replacingOccurrences(of: "</HealthData>", with: """
             <CDADocument type="HKDocumentTypeIdentifierCDA" sourceName="Clinic" startDate="2024-05-05 12:00:00 +0200" endDate="2024-05-05 13:00:00 +0200">
              <FileReference path="/cda-documents/named.xml"/>
             </CDADocument>
            </HealthData>
            """)
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let imported = try await broker.healthctl(["import", folder.path, "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)\n\(broker.log)")
        #expect(imported.stdout.contains("3 records read; samples and routes: 3 imported, 0 already there, 0 refused."), "\(imported.stdout)")
        #expect(try await documents(in: broker) == ["Named 2024-05-05T10:00:00.000Z 2024-05-05T11:00:00.000Z",
                                                    "Unnamed 2024-06-01T08:00:00.000Z 2024-06-01T08:00:00.000Z"])
    }
}
