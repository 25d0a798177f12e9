@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// State of Mind, GAD-7/PHQ-9 and stored CDA documents, which no Apple DTD has an element for,
/// are written as OpenHealthKit's own `StateOfMind`, `ScoredAssessment` and `CDADocument`
/// elements and read back, through the importer's conversion, to the same sample: value,
/// dates, device, metadata. Text that does not parse is refused; lists are bounded; a second
/// read gives the same sync identity, so a second import adds nothing.
@Suite(.timeLimit(.minutes(10))) struct ExportReflectionsTests {
    let start = Date(timeIntervalSince1970: 1_714_543_200)  // 2024-05-01 06:00:00Z
    let device = DeviceRecord(name: "iPhone", manufacturer: "Apple Inc.")

    /// Writes `elements` between the prologue and epilogue to a folder's export.xml (with
    /// `files` beside it) and reads every item back.
    func readBack(_ elements: String, files: [String: Data] = [:]) throws -> (items: [ExportItem], file: AppleHealthExportFile, folder: URL) {
        let writer = Self.writer
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reflections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let xml = writer.prologue(exportDate: start, locale: "en_US", characteristics: []) + elements + ExportXMLWriter.epilogue
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let file = try AppleHealthExportFile(url: folder)
        var items: [ExportItem] = []
        try file.read { items.append($0) }
        return (items, file, folder)
    }

    static let writer = ExportXMLWriter(timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt,
                                        unit: { PreferredUnitDefaults.unit(for: $0, in: .metric) })

    func element(_ sample: SampleRecord) throws -> String {
        try #require(Self.writer.element(sample, sourceName: "Mindfulness", sourceVersion: "18.1"))
    }

    @Test func aStateOfMindReadsBackToTheSameSample() throws {
        for value in [StateOfMindValue(kind: 1, valence: -0.75, labels: [14, 31, 38], associations: [17, 1]),
                      StateOfMindValue(kind: 2, valence: 1),
                      StateOfMindValue(kind: 2, valence: 0.123456789012345, labels: [1])] {
            let sample = SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierStateOfMind, startDate: start, endDate: start,
                                      value: .stateOfMind(value), metadata: ["HKWasUserEntered": .bool(true), "note": .string("a <b> & \"c\"")],
                                      device: device)
            let (items, _, folder) = try readBack(try element(sample))
            defer { try? FileManager.default.removeItem(at: folder) }
            guard case let .stateOfMind(read)? = items.last else { Issue.record("no state of mind in \(items)"); return }
            #expect(read.header.source.name == "Mindfulness" && read.header.source.version == "18.1")
            let converted = try ExportConversion.sample(read)
            #expect(converted.record.value == sample.value)
            #expect(converted.record.device == device)
            #expect(converted.record.metadata["HKWasUserEntered"] == .bool(true))
            #expect(converted.record.metadata["note"] == .string("a <b> & \"c\""))
            #expect(converted.record.startDate == start && converted.record.endDate == start)
            // Read again: the same identity, so a second import is an ignored upsert.
            #expect(try ExportConversion.sample(read).record.metadata[HKMetadataKeySyncIdentifier]
                    == converted.record.metadata[HKMetadataKeySyncIdentifier])
        }
    }

    @Test func gad7AndPHQ9ReadBackToTheSameAnswers() throws {
        for (type, answers) in [("HKScoredAssessmentTypeIdentifierGAD7", [0, 1, 2, 3, 0, 1, 2]),
                                ("HKScoredAssessmentTypeIdentifierPHQ9", [3, 3, 3, 3, 3, 3, 3, 3, 4])] {
            let sample = SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(120),
                                      value: .scoredAssessment(ScoredAssessmentValue(answers: answers)))
            let (items, _, folder) = try readBack(try element(sample))
            defer { try? FileManager.default.removeItem(at: folder) }
            guard case let .scoredAssessment(read)? = items.last else { Issue.record("no assessment in \(items)"); return }
            let converted = try ExportConversion.sample(read).record
            #expect(converted.typeIdentifier == type)
            #expect(converted.value == sample.value)
            #expect(converted.endDate == sample.endDate)
        }
    }

    /// What the text cannot say is refused here; what it says that HealthKit forbids (valence 2,
    /// label 99, 6 GAD-7 answers) is left to healthd's validator, as for an app's save.
    @Test func stateOfMindAndAssessmentTextThatDoesNotParseIsRefused() {
        let header = { (type: String) in
            ExportSampleHeader(type: type, source: ExportSource(name: "x", version: nil, device: nil), creationDate: nil,
                               startDate: start, endDate: start, metadata: [], line: 1)
        }
        let mind = { (kind: String, valence: String, labels: String?) in
            ExportStateOfMind(header: header(HKDataTypeIdentifierStateOfMind), kind: kind, valence: valence, labels: labels, associations: nil)
        }
        #expect(throws: Never.self) { try ExportConversion.sample(mind("1", "0.5", "1 2")) }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(mind("one", "0.5", nil)) }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(mind("1", "nan", nil)) }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(mind("1", "0.5", "1 happy")) }
        let tooMany = (1...39).map(String.init).joined(separator: " ")
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(mind("1", "0.5", tooMany)) }
        #expect(throws: ImportRefusal.self) {
            try ExportConversion.sample(ExportStateOfMind(header: header("HKQuantityTypeIdentifierHeartRate"), kind: "1", valence: "0",
                                                          labels: nil, associations: nil))
        }
        let gad7 = header("HKScoredAssessmentTypeIdentifierGAD7")
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(ExportScoredAssessment(header: gad7, answers: "0 1 2 3 0 1 2 3")) }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(ExportScoredAssessment(header: gad7, answers: "0 1 2 x 0 1 2")) }
        #expect(throws: ImportRefusal.self) {
            try ExportConversion.sample(ExportScoredAssessment(header: header("HKScoredAssessmentTypeIdentifierBDI"), answers: "0"))
        }
    }

    @Test func aCDADocumentReadsBackFromItsFile() throws {
        let bytes = Data("<?xml version=\"1.0\"?><ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>Visit</title></ClinicalDocument>".utf8)
        let uuid = UUID()
        let sample = SampleRecord(uuid: uuid, typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue, startDate: start,
                                  endDate: start.addingTimeInterval(3600), value: .document(DocumentValue(data: bytes)),
                                  metadata: ["HKExternalUUID": .string("visit-1")], device: device)
        #expect(Self.writer.element(sample, sourceName: "Clinic", sourceVersion: nil) == nil, "written only with its file")
        let path = "/cda-documents/\(uuid.uuidString).xml"
        let text = Self.writer.document(sample, sourceName: "Clinic", sourceVersion: nil, path: path)
        let (items, file, folder) = try readBack(text, files: [String(path.dropFirst()): bytes])
        defer { try? FileManager.default.removeItem(at: folder) }
        guard case let .document(read)? = items.last else { Issue.record("no document in \(items)"); return }
        #expect(read.filePath == path)
        let data = try file.document(at: path, line: read.header.line)
        let converted = try ExportConversion.sample(read, data: data).record
        #expect(converted.value == sample.value)
        #expect(converted.metadata["HKExternalUUID"] == .string("visit-1"))
        #expect(converted.device == device)
        #expect(converted.endDate == sample.endDate)
    }

    /// Only a file directly in `cda-documents/`, and no larger than an app's save may be.
    @Test func aDocumentFileOutsideItsFolderOrTooLargeIsRefused() throws {
        let big = Data(repeating: UInt8(ascii: "a"), count: DocumentRules.maximumBytes + 1)
        let (_, file, folder) = try readBack("", files: ["cda-documents/big.xml": big, "secret.xml": Data("x".utf8),
                                                         "cda-documents/ok.xml": Data("<a/>".utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try file.document(at: "/cda-documents/ok.xml", line: 1) == Data("<a/>".utf8))
        for path in ["/cda-documents/big.xml", "/secret.xml", "/cda-documents/../secret.xml", "/cda-documents/sub/ok.xml",
                     "/clinical-records/ok.xml"] {
            #expect(throws: ExportReadError.self, "\(path)") { try file.document(at: path, line: 1) }
        }
    }
}
