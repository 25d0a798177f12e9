@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// A vision prescription written to export.xml as Apple's `VisionPrescription` (DTD v14) with
/// `RightEye`/`LeftEye` children reads back, through the importer's conversion, to the same
/// sample: glasses with every glasses field and a prism, contacts with a brand, a plain
/// prescription without lenses; Apple's own element (no source, units spelled by the file)
/// reads too, and what cannot be a prescription is refused alone.
@Suite(.timeLimit(.minutes(10))) struct ExportVisionPrescriptionTests {
    let issued = Date(timeIntervalSince1970: 1_714_543_200)  // 2024-05-01 06:00:00Z

    func read(_ xml: String) throws -> [ExportItem] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vision-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        var items: [ExportItem] = []
        try AppleHealthExportFile(url: folder).read { items.append($0) }
        return items
    }

    func readBack(_ sample: SampleRecord) throws -> ExportVisionPrescription? {
        let writer = ExportXMLWriter(timeZone: TimeZone(identifier: "America/New_York") ?? .gmt,
                                     unit: { PreferredUnitDefaults.unit(for: $0, in: .metric) })
        let element = try #require(writer.element(sample, sourceName: "Optician app", sourceVersion: "3.1"))
        let items = try read(writer.prologue(exportDate: issued, locale: "en_US", characteristics: []) + element + ExportXMLWriter.epilogue)
        guard case let .visionPrescription(read)? = items.last else { return nil }
        return read
    }

    func prescription(_ value: VisionPrescriptionValue, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: issued, endDate: issued,
                     value: .visionPrescription(value), metadata: metadata, device: DeviceRecord(name: "Phoropter", manufacturer: "Example"))
    }

    @Test func glassesWithEveryFieldAndAPrismReadBackToTheSameSample() throws {
        let right = LensSpecificationValue(sphere: -2.25, cylinder: -0.75, axis: 180, addPower: 1.5, vertexDistance: 12,
                                           prism: VisionPrismValue(amount: 1.25, angle: 270, eye: 2),
                                           farPupillaryDistance: 32.5, nearPupillaryDistance: 30)
        let left = LensSpecificationValue(sphere: 0.125, cylinder: nil, axis: nil, addPower: 1.5)
        let sample = prescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: true,
                                                          expirationDate: issued.addingTimeInterval(2 * 365 * 86400),
                                                          rightEye: right, leftEye: left),
                                  metadata: ["HKWasUserEntered": .bool(true)])
        let read = try #require(try readBack(sample))
        #expect(read.header.source.name == "Optician app" && read.header.source.version == "3.1")
        #expect(read.kind == "HKVisionPrescriptionTypeGlasses")
        let converted = try ExportConversion.sample(read)
        #expect(converted.record.value == sample.value)
        #expect(converted.record.startDate == issued && converted.record.endDate == issued)
        #expect(converted.record.device == sample.device)
        #expect(converted.record.metadata["HKWasUserEntered"] == .bool(true))
        #expect(converted.sourceName == "Optician app")
        _ = try SampleValidator.canonicalized(converted.record)
    }

    @Test func contactsKeepTheirBrandAndLensFields() throws {
        let lens = LensSpecificationValue(sphere: -3, cylinder: -1.25, axis: 90, baseCurve: 8.6, diameter: 14.2)
        let sample = prescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.contacts, hasLenses: true, expirationDate: nil,
                                                          rightEye: lens, leftEye: lens, brand: "Acme Daily <Plus> & \"Co\""))
        let read = try #require(try readBack(sample))
        #expect(try ExportConversion.sample(read).record.value == sample.value)
    }

    @Test func aPrescriptionWithoutLensesStaysWithoutLenses() throws {
        let sample = prescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: false, expirationDate: nil))
        let read = try #require(try readBack(sample))
        #expect(read.rightEye == nil && read.leftEye == nil)
        #expect(try ExportConversion.sample(read).record.value == sample.value)
    }

    /// Apple's element as the v14 DTD declares it: no source, an attachment, units spelled by the
    /// file (a vertex distance in centimetres is converted to millimetres).
    @Test func applesElementWithoutASourceReads() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="2024-05-01 08:00:00 +0200">
              <RightEye sphere="-1.5" sphereUnit="D" vertex="1.2" vertexUnit="cm"/>
              <Attachment identifier="A1"/>
             </VisionPrescription>
            </HealthData>
            """
        guard case let .visionPrescription(read)? = try read(xml).last else { Issue.record("no prescription"); return }
        #expect(read.header.source.name == nil)
        #expect(read.attachments == 1)
        let converted = try ExportConversion.sample(read)
        guard case let .visionPrescription(value) = converted.record.value, let right = value.rightEye else {
            Issue.record("not a prescription with a right lens: \(converted.record.value)"); return
        }
        #expect(value.kind == VisionPrescriptionValue.glasses && value.hasLenses && value.leftEye == nil && value.brand == nil)
        #expect(right.sphere == -1.5)
        #expect(abs((right.vertexDistance ?? 0) - 12) < 1e-9, "\(right)")
        #expect(converted.record.startDate == issued)
        // Its identity is stable: the same element converts to the same sync identifier.
        #expect(converted.record.metadata[HKMetadataKeySyncIdentifier] == (try ExportConversion.sample(read)).record.metadata[HKMetadataKeySyncIdentifier])
    }

    @Test func whatCannotBeAPrescriptionIsRefused() throws {
        func element(_ type: String, _ eye: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <VisionPrescription type="\(type)" dateIssued="2024-05-01 08:00:00 +0200">\(eye)</VisionPrescription>
            </HealthData>
            """
        }
        for (type, eye) in [("HKVisionPrescriptionTypeMonocle", ""), ("glasses", #"<RightEye cylinder="-1" cylinderUnit="D"/>"#),
                            ("glasses", #"<RightEye sphere="-1" sphereUnit="mmHg"/>"#), ("glasses", #"<RightEye sphere="nan" sphereUnit="D"/>"#),
                            ("glasses", #"<RightEye sphere="-1" prismAmount="2" prismAmountUnit="pD"/>"#)] {
            guard case let .visionPrescription(read)? = try read(element(type, eye)).last else { Issue.record("no prescription"); continue }
            #expect(throws: ImportRefusal.self, "\(type) \(eye)") { try ExportConversion.sample(read) }
        }
    }
}
