@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// An audiogram written to export.xml as healthkit11.dtd's `Audiogram` with `SensitivityPoint`
/// children reads back, through the importer's conversion, to the same sample: points, both
/// ears, one-ear points, device and metadata. Masking and clamping have no attributes in the
/// DTD: they travel as OpenHealthKit's `SensitivityTest` children, and Apple's points without
/// them import as unmasked air-conduction tests.
@Suite(.timeLimit(.minutes(10))) struct ExportAudiogramTests {
    let start = Date(timeIntervalSince1970: 1_714_543_200)  // 2024-05-01 06:00:00Z

    func readBack(_ sample: SampleRecord) throws -> [ExportItem] {
        let writer = ExportXMLWriter(timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt,
                                     unit: { PreferredUnitDefaults.unit(for: $0, in: .metric) })
        let element = try #require(writer.element(sample, sourceName: "Audiometer app", sourceVersion: "2.0"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audiogram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = writer.prologue(exportDate: start, locale: "en_US", characteristics: []) + element + ExportXMLWriter.epilogue
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        var items: [ExportItem] = []
        try AppleHealthExportFile(url: folder).read { items.append($0) }
        return items
    }

    @Test func anAudiogramReadsBackToTheSameSample() throws {
        let points = [
            AudiogramValue.Point(frequency: 250, tests: [AudiogramValue.Test(sensitivity: -5, side: 0), AudiogramValue.Test(sensitivity: 12.5, side: 1)]),
            AudiogramValue.Point(frequency: 8000, tests: [AudiogramValue.Test(sensitivity: 70, side: 1)]),
        ]
        let device = DeviceRecord(name: "Audiometer", manufacturer: "Example")
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierAudiogram, startDate: start,
                                  endDate: start.addingTimeInterval(600), value: .audiogram(AudiogramValue(points: points)),
                                  metadata: ["HKWasUserEntered": .bool(true)], device: device)
        let items = try readBack(sample)
        guard case let .audiogram(read)? = items.last else { Issue.record("no audiogram in \(items)"); return }
        #expect(read.header.source.name == "Audiometer app")
        let converted = try ExportConversion.sample(read).record
        #expect(converted.value == sample.value)
        #expect(converted.device == device)
        #expect(converted.metadata["HKWasUserEntered"] == .bool(true))
        #expect(converted.startDate == start && converted.endDate == sample.endDate)
    }

    @Test func zeroPointsReadBackAsZeroPoints() throws {
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierAudiogram, startDate: start, endDate: start,
                                  value: .audiogram(AudiogramValue(points: [])))
        guard case let .audiogram(read)? = try readBack(sample).last else { Issue.record("no audiogram"); return }
        #expect(try ExportConversion.sample(read).record.value == sample.value)
    }

    /// Masking and clamping ranges, open at either end (iOS 18.1), travel as OpenHealthKit's
    /// `SensitivityTest` children; Apple's ear attributes are still written beside them.
    @Test func maskedAndClampedTestsReadBackAsTheyWere() throws {
        let points = [
            AudiogramValue.Point(frequency: 1000, tests: [
                AudiogramValue.Test(sensitivity: 40, masked: true, side: 0, clampingUpperBound: 90),
                AudiogramValue.Test(sensitivity: 20.5, masked: true, side: 1, clampingLowerBound: 5),
            ]),
            AudiogramValue.Point(frequency: 2000, tests: [AudiogramValue.Test(sensitivity: 35, side: 1, clampingLowerBound: -10, clampingUpperBound: 100)]),
        ]
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierAudiogram, startDate: start, endDate: start,
                                  value: .audiogram(AudiogramValue(points: points)))
        guard case let .audiogram(read)? = try readBack(sample).last else { Issue.record("no audiogram"); return }
        #expect(read.points.first?.leftEar == ExportMeasure(value: "40", unit: "dBHL"), "Apple's summary: the masked test, the only one")
        #expect(read.points.map(\.tests.count) == [2, 1])
        #expect(try ExportConversion.sample(read).record.value == sample.value)
    }

    /// Apple's points (no `SensitivityTest` children) become unmasked air-conduction tests.
    @Test func applesPointsWithoutTestsImportAsUnmaskedAirTests() throws {
        let header = ExportSampleHeader(type: HKDataTypeIdentifierAudiogram, source: ExportSource(name: "x", version: nil, device: nil),
                                        creationDate: nil, startDate: start, endDate: start, metadata: [], line: 1)
        let apple = ExportAudiogram(header: header, points: [ExportSensitivityPoint(frequency: ExportMeasure(value: "1000", unit: "Hz"),
                                                                                   leftEar: ExportMeasure(value: "40", unit: "dBHL"),
                                                                                   rightEar: nil)])
        #expect(try ExportConversion.sample(apple).record.value
                == .audiogram(AudiogramValue(points: [AudiogramValue.Point(frequency: 1000, tests: [AudiogramValue.Test(sensitivity: 40, side: 0)])])))
    }

    /// A test's fields that do not parse are refused naming the field; too many tests at one
    /// frequency are refused before the validator sees them.
    @Test func unreadableOrTooManySensitivityTestsAreRefused() throws {
        let header = ExportSampleHeader(type: HKDataTypeIdentifierAudiogram, source: ExportSource(name: "x", version: nil, device: nil),
                                        creationDate: nil, startDate: start, endDate: start, metadata: [], line: 1)
        func audiogram(_ tests: [ExportSensitivityTest]) -> ExportAudiogram {
            ExportAudiogram(header: header, points: [ExportSensitivityPoint(frequency: ExportMeasure(value: "1000", unit: "Hz"),
                                                                           leftEar: nil, rightEar: nil, tests: tests)])
        }
        func test(side: String = "left", masked: String? = "0", lower: String? = nil) -> ExportSensitivityTest {
            ExportSensitivityTest(side: side, sensitivity: ExportMeasure(value: "30", unit: "dBHL"), conductionType: "0", masked: masked,
                                  clampingLowerBound: lower, clampingUpperBound: nil)
        }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(audiogram([test(side: "middle")])) }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(audiogram([test(masked: "yes")])) }
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(audiogram([test(lower: "nan")])) }
        #expect(throws: ImportRefusal.self) {
            try ExportConversion.sample(audiogram(Array(repeating: test(), count: ExportConversion.maxImportedTestsPerPoint + 1)))
        }
        #expect(throws: Never.self) {
            try ExportConversion.sample(audiogram(Array(repeating: test(), count: ExportConversion.maxImportedTestsPerPoint)))
        }
    }

    @Test func kilohertzAreConvertedAndUnitsOfTheWrongDimensionRefused() throws {
        func header() -> ExportSampleHeader {
            ExportSampleHeader(type: HKDataTypeIdentifierAudiogram, source: ExportSource(name: "x", version: nil, device: nil), creationDate: nil,
                               startDate: start, endDate: start, metadata: [], line: 1)
        }
        let kilo = ExportAudiogram(header: header(), points: [ExportSensitivityPoint(frequency: ExportMeasure(value: "2", unit: "kHz"),
                                                                                     leftEar: ExportMeasure(value: "30", unit: "dBHL"), rightEar: nil)])
        #expect(try ExportConversion.sample(kilo).record.value
                == .audiogram(AudiogramValue(points: [AudiogramValue.Point(frequency: 2000, tests: [AudiogramValue.Test(sensitivity: 30, side: 0)])])))
        let seconds = ExportAudiogram(header: header(), points: [ExportSensitivityPoint(frequency: ExportMeasure(value: "2", unit: "s"),
                                                                                        leftEar: nil, rightEar: nil)])
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(seconds) }
        let notANumber = ExportAudiogram(header: header(), points: [ExportSensitivityPoint(frequency: ExportMeasure(value: "1000", unit: "Hz"),
                                                                                           leftEar: ExportMeasure(value: "nan", unit: "dBHL"), rightEar: nil)])
        #expect(throws: ImportRefusal.self) { try ExportConversion.sample(notANumber) }
    }
}
