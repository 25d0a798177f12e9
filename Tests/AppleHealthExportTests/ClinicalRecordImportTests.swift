import Foundation
import HealthModel
import Testing
@testable import AppleHealthExport

/// `ClinicalRecord` elements (healthkit11.dtd) and their FHIR files: the element's attributes are
/// read as written; the resource is read only from a file directly in `clinical-records/`, at
/// most `FHIRResourceRules.maxResourceBytes` of it; the conversion keeps the bytes, takes the
/// display name from the resource, and refuses a resource that does not match, naming the file.
@Suite(.timeLimit(.minutes(10))) struct ClinicalRecordImportTests {
    static let json = #"{"resourceType":"Condition","id":"c-1","code":{"coding":[{"display":"Asthma"}]}}"#

    func export(resource: Data, path: String = "/clinical-records/Condition-c-1.json") throws -> (URL, AppleHealthExportFile) {
        let folder = try Fixtures.scratch()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("clinical-records"), withIntermediateDirectories: true)
        try resource.write(to: folder.appendingPathComponent("clinical-records/Condition-c-1.json"))
        try Data("""
            <HealthData locale="en_US">
             <ClinicalRecord type="HKClinicalTypeIdentifierConditionRecord" identifier="c-1" sourceName="Clinic" sourceURL="https://fhir.example.org/Condition/c-1" fhirVersion="1.0.2" receivedDate="2024-01-01 10:00:00 +0000" resourceFilePath="\(path)"/>
            </HealthData>
            """.utf8).write(to: folder.appendingPathComponent("export.xml"))
        return (folder, try AppleHealthExportFile(url: folder))
    }

    func clinicalRecords(_ file: AppleHealthExportFile) throws -> [ExportClinicalRecord] {
        var found: [ExportClinicalRecord] = []
        try file.read { if case let .clinicalRecord(record) = $0 { found.append(record) } }
        return found
    }

    @Test func anElementAndItsFileBecomeARecordHoldingTheBytes() throws {
        let (folder, file) = try export(resource: Data(Self.json.utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        let element = try #require(try clinicalRecords(file).first)
        #expect(element.type == "HKClinicalTypeIdentifierConditionRecord" && element.identifier == "c-1" && element.fhirVersion == "1.0.2")
        let imported = try ExportConversion.sample(element, resource: file.clinicalResource(at: element.resourceFilePath, line: element.line))
        guard case let .clinicalRecord(value) = imported.record.value else { Issue.record("not a clinical record"); return }
        #expect(value.data == Data(Self.json.utf8))
        #expect(value.displayName == "Asthma" && value.resourceType == "Condition")
        #expect(imported.sourceName == "Clinic")
        #expect(try SampleValidator.canonicalized(imported.record).value == imported.record.value)
    }

    @Test(arguments: ["/clinical-records/../export.xml", "/export.xml", "/clinical-records/sub/Condition-c-1.json", "/other/Condition-c-1.json"])
    func onlyAFileDirectlyInClinicalRecordsIsRead(path: String) throws {
        let (folder, file) = try export(resource: Data(Self.json.utf8), path: path)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ExportReadError.self) { try file.clinicalResource(at: path, line: 2) }
    }

    @Test func aFileAtTheLimitIsReadAndOnePastIsRefusedNamingIt() throws {
        let padded = Self.json + String(repeating: " ", count: FHIRResourceRules.maxResourceBytes - Self.json.utf8.count)
        let (folder, file) = try export(resource: Data(padded.utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try file.clinicalResource(at: "/clinical-records/Condition-c-1.json", line: 2).count == FHIRResourceRules.maxResourceBytes)
        try Data((padded + " ").utf8).write(to: folder.appendingPathComponent("clinical-records/Condition-c-1.json"))
        #expect { _ = try file.clinicalResource(at: "/clinical-records/Condition-c-1.json", line: 2) } throws: { error in
            "\(error)".contains("clinical-records/Condition-c-1.json: the FHIR resource is larger than")
        }
    }

    @Test func aResourceOfAnotherIdIsRefusedNamingTheFile() throws {
        let (folder, file) = try export(resource: Data(#"{"resourceType":"Condition","id":"c-2"}"#.utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        let element = try #require(try clinicalRecords(file).first)
        #expect { _ = try ExportConversion.sample(element, resource: file.clinicalResource(at: element.resourceFilePath, line: 2)) } throws: { error in
            (error as? ImportRefusal)?.reason == "clinical-records/Condition-c-1.json: the FHIR resource's id does not match the record's identifier"
        }
    }

    /// A stored record's resource file name (`clinical-records/<type>-<id>.json`) fits a file
    /// name whatever the id: an id of 64 four-byte letters (within FHIR's 256-byte bound) once made
    /// a name over 255 bytes, and every later Apple-format export failed (session 18 storage review).
    /// Ids that differ only where they were made safe keep different names.
    @Test func everyIdentifierMakesADistinctShortSafeFileName() {
        let ids = [String(repeating: "\u{10400}", count: 64), String(repeating: "é", count: 128), "a b", "a_b", "a/b", "../x",
                   "a\u{0}b", "c-1", String(repeating: "x", count: 256), String(repeating: "x", count: 255) + "y"]
        let names = ids.map { ExportConversion.fileNameID($0) }
        for (id, name) in zip(ids, names) {
            #expect(("AllergyIntolerance-" + name + ".json").utf8.count <= 255, "\(id.prefix(8)): \(name)")
            #expect(name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "-" || $0 == "." || $0 == "_" || CharacterSet.alphanumerics.contains($0)) }, "\(name)")
        }
        #expect(Set(names).count == ids.count, "\(names)")
        #expect(ExportConversion.fileNameID("c-1") == "c-1", "a safe id is kept as it is")
    }
}
