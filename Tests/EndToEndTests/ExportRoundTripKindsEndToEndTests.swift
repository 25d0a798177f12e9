import AppleHealthExport
import Foundation
import HealthModel
import Testing
import TestSupport

/// The kinds no Apple DTD has an element for, and what iOS 18.1 added to audiograms, survive
/// import → `healthctl export` → import into an empty store through a real healthd: State of
/// Mind, GAD-7 and PHQ-9, masked and clamped audiogram tests, and a stored CDA document with
/// its bytes. Compared field by field: every sample each store holds is exported, read back with
/// the import's own reader and conversion, and the two exports' samples (value, dates, device,
/// metadata, the document's bytes) must be equal; `healthctl samples --json` must agree too.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ExportRoundTripKindsEndToEndTests {
    static let types = [HKDataTypeIdentifierStateOfMind, "HKScoredAssessmentTypeIdentifierGAD7", "HKScoredAssessmentTypeIdentifierPHQ9",
                        HKDataTypeIdentifierAudiogram, "HKDocumentTypeIdentifierCDA"]

    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><title>Discharge summary</title>
        <recordTarget><patientRole><patient><name>Ada Lovelace</name></patient></patientRole></recordTarget></ClinicalDocument>

        """

    static let device = "&lt;&lt;HKDevice: 0x0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:18.1&gt;"

    /// One of each kind as OpenHealthKit's export writes them (ExportDTD's own declarations).
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-06-01 10:00:00 +0200"/>
         <StateOfMind type="HKDataTypeStateOfMind" sourceName="Health" sourceVersion="18.1" device="\(device)" startDate="2024-05-01 21:00:00 +0200" endDate="2024-05-01 21:00:00 +0200" kind="2" valence="-0.4285714285714286" labels="14 31 38" associations="17 18">
          <MetadataEntry key="HKWasUserEntered" value="1"/>
          <MetadataEntry key="note" value="long day &amp; &lt;rain&gt;"/>
         </StateOfMind>
         <StateOfMind type="HKDataTypeStateOfMind" sourceName="Mood app" startDate="2024-05-02 08:15:30 +0200" endDate="2024-05-02 08:15:30 +0200" kind="1" valence="1">
         </StateOfMind>
         <ScoredAssessment type="HKScoredAssessmentTypeIdentifierGAD7" sourceName="Health" sourceVersion="18.1" startDate="2024-05-03 09:00:00 +0200" endDate="2024-05-03 09:05:00 +0200" answers="0 1 2 3 3 2 1">
         </ScoredAssessment>
         <ScoredAssessment type="HKScoredAssessmentTypeIdentifierPHQ9" sourceName="Health" sourceVersion="18.1" startDate="2024-05-03 09:10:00 +0200" endDate="2024-05-03 09:20:00 +0200" answers="3 3 2 2 1 1 0 0 4">
          <MetadataEntry key="clinician" value="Dr. Example"/>
         </ScoredAssessment>
         <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Hearing test" sourceVersion="2.0" startDate="2024-05-04 10:00:00 +0200" endDate="2024-05-04 10:20:00 +0200">
          <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz" leftEarValue="40" leftEarUnit="dBHL" rightEarValue="20.5" rightEarUnit="dBHL">
           <SensitivityTest side="left" sensitivityValue="40" sensitivityUnit="dBHL" conductionType="0" masked="1" clampingUpperBound="90"/>
           <SensitivityTest side="right" sensitivityValue="20.5" sensitivityUnit="dBHL" conductionType="0" masked="1" clampingLowerBound="5"/>
          </SensitivityPoint>
          <SensitivityPoint frequencyValue="2000" frequencyUnit="Hz" leftEarValue="35" leftEarUnit="dBHL">
           <SensitivityTest side="left" sensitivityValue="35" sensitivityUnit="dBHL" conductionType="0" masked="0" clampingLowerBound="-10" clampingUpperBound="100"/>
          </SensitivityPoint>
          <SensitivityPoint frequencyValue="4000" frequencyUnit="Hz" leftEarValue="50" leftEarUnit="dBHL"/>
         </Audiogram>
         <CDADocument type="HKDocumentTypeIdentifierCDA" sourceName="Clinic portal" sourceVersion="3" startDate="2024-05-05 12:00:00 +0200" endDate="2024-05-05 13:00:00 +0200">
          <MetadataEntry key="HKExternalUUID" value="visit-42"/>
          <FileReference path="/cda-documents/visit.xml"/>
         </CDADocument>
        </HealthData>

        """

    /// An export folder: export.xml and `files` (paths relative to it) beside it.
    func writeExport(in broker: BrokerProcess, name: String, xml: String, files: [String: String]) throws -> String {
        let folder = URL(fileURLWithPath: broker.root).appendingPathComponent(name)
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        return folder.path
    }

    /// Every sample of the compared kinds in an export, as the import converts them (sorted, so
    /// two stores' exports compare regardless of order), without the placeholder UUIDs.
    func samples(in export: String) throws -> [SampleRecord] {
        let file = try AppleHealthExportFile(url: URL(fileURLWithPath: export))
        var result: [SampleRecord] = []
        try file.read { item in
            var imported: ImportedSample?
            switch item {
            case let .stateOfMind(element): imported = try ExportConversion.sample(element)
            case let .scoredAssessment(element): imported = try ExportConversion.sample(element)
            case let .audiogram(element): imported = try ExportConversion.sample(element)
            case let .document(element):
                let path = try #require(element.filePath)
                imported = try ExportConversion.sample(element, data: try file.document(at: path, line: element.header.line))
            default: imported = nil
            }
            guard var record = imported?.record else { return }
            record.uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            #expect(imported?.sourceName != nil)
            result.append(record)
        }
        return result.sorted { ($0.typeIdentifier, $0.startDate) < ($1.typeIdentifier, $1.startDate) }
    }

    func snapshot(_ broker: BrokerProcess) async throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for type in Self.types {
            let listed = try await broker.healthctl(["samples", type, "--json"])
            #expect(listed.status == 0, "\(listed)")
            result[type] = try listed.lines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                let data = try JSONSerialization.data(withJSONObject: ExportEndToEndTests.normalized(object), options: [.sortedKeys])
                return String(decoding: data, as: UTF8.self)
            }.sorted()
        }
        return result
    }

    func export(_ broker: BrokerProcess) async throws -> String {
        let zip = broker.root + "/out/export.zip"
        try FileManager.default.createDirectory(atPath: broker.root + "/out", withIntermediateDirectories: true)
        let exported = try await broker.healthctl(["export", zip])
        #expect(exported.status == 0, "\(exported)\n\(broker.log)")
        return zip
    }

    @Test func stateOfMindAssessmentsAudiogramTestsAndDocumentsSurviveExportAndReimport() async throws {
        let original = try BrokerProcess()
        let fixture = try writeExport(in: original, name: "kinds", xml: Self.xml, files: ["cda-documents/visit.xml": Self.document])
        let imported = try await original.healthctl(["import", fixture])
        #expect(imported.status == 0, "\(imported)\n\(original.log)")
        #expect(imported.stdout.contains(", 0 refused."), "\(imported.stdout)")
        let fromFixture = try samples(in: fixture)
        #expect(fromFixture.count == 6)
        let before = try await snapshot(original)
        #expect(before.values.map(\.count).reduce(0, +) == 6, "\(before)")

        let archive = try await export(original)
        let first = try samples(in: archive)
        #expect(first.count == 6, "every kind is in export.xml: \(first.map(\.typeIdentifier))")
        // The first export holds what the fixture said, field by field, the sync identity the
        // first import gave each sample included (it is metadata, and travels).
        #expect(first == fromFixture, "the export differs from what was imported:\nexported \(first)\nimported \(fromFixture)")

        let copy = try BrokerProcess()
        let reimported = try await copy.healthctl(["import", archive])
        #expect(reimported.status == 0, "\(reimported)\n\(copy.log)")
        #expect(reimported.stdout.contains(", 0 refused."), "\(reimported.stdout)")
        #expect(try await snapshot(copy) == before)
        let second = try samples(in: try await export(copy))
        #expect(second == first, "the copy's export differs:\nfirst  \(first)\nsecond \(second)")

        // Importing the export again, into either store, adds nothing.
        for broker in [original, copy] {
            let again = try await broker.healthctl(["import", archive])
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.contains(": 0 imported,"), "\(again.stdout)")
            #expect(try await snapshot(broker) == before)
        }
    }

    /// Import validates these kinds exactly as an app's save: a document type declaration in a
    /// CDA document (CDADocumentReader), a valence outside −1…1 (StateOfMindValidator), six
    /// GAD-7 answers (ScoredAssessmentRules) and a clamping range upside down (AudiogramRules)
    /// are each refused with the reason, and the rest is imported.
    @Test func whatAnAppsSaveRefusesTheImportRefuses() async throws {
        let broker = try BrokerProcess()
        let header = "sourceName=\"x\" startDate=\"2024-05-01 21:00:00 +0200\" endDate=\"2024-05-01 21:00:00 +0200\""
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-06-01 10:00:00 +0200"/>
             <StateOfMind type="HKDataTypeStateOfMind" \(header) kind="2" valence="2"/>
             <StateOfMind type="HKDataTypeStateOfMind" \(header) kind="2" valence="0.5"/>
             <ScoredAssessment type="HKScoredAssessmentTypeIdentifierGAD7" \(header) answers="0 1 2 3 0 1"/>
             <Audiogram type="HKDataTypeIdentifierAudiogram" \(header)>
              <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz">
               <SensitivityTest side="left" sensitivityValue="40" sensitivityUnit="dBHL" clampingLowerBound="50" clampingUpperBound="10"/>
              </SensitivityPoint>
             </Audiogram>
             <CDADocument type="HKDocumentTypeIdentifierCDA" \(header)><FileReference path="/cda-documents/doctype.xml"/></CDADocument>
             <CDADocument type="HKDocumentTypeIdentifierCDA" \(header)><FileReference path="/cda-documents/missing.xml"/></CDADocument>
            </HealthData>

            """
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE ClinicalDocument [<!ENTITY a \"a\">]>\n"
            + "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>&a;</title></ClinicalDocument>\n"
        let folder = try writeExport(in: broker, name: "refused", xml: xml, files: ["cda-documents/doctype.xml": doctype])
        let result = try await broker.healthctl(["import", folder])
        #expect(result.stdout.contains(", 5 refused."), "\(result.stdout)\n\(broker.log)")
        #expect(result.stdout.contains("valence"), "\(result.stdout)")
        #expect(result.stdout.contains("GAD-7 needs exactly 7 answers"), "\(result.stdout)")
        #expect(result.stdout.lowercased().contains("doctype") || result.stdout.contains("document type declaration"), "\(result.stdout)")
        let listed = try await snapshot(broker)
        #expect(listed[HKDataTypeIdentifierStateOfMind]?.count == 1)
        #expect(listed.values.map(\.count).reduce(0, +) == 1, "\(listed)")
    }
}
