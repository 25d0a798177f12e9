import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// The hand-written encoder of plain fetched rows must give protobuf-c's bytes exactly, for
/// every value a field can take — the zeros protobuf-c leaves out, the negatives it writes as
/// ten-byte varints — and for the shared parts as their tables grow between batches.
@Suite(.timeLimit(.minutes(10))) struct FetchedSampleEncoderTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let sources = [
        SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1"),
        SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone", version: nil),
        // The wire cannot tell an empty version from none (both are left out): nil here.
        SourceRecord(bundleIdentifier: "org.example.empty", name: "", version: nil),
        SourceRecord(bundleIdentifier: String(repeating: "a", count: 300), name: "Long", version: "9"),
        // Issue 15: the saving host's product type and system version, both and one alone.
        SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1", productType: "ThinkPad X1",
                     operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0)),
        SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1", productType: "iPhone14,2"),
    ]
    static let devices = [
        DeviceRecord(name: "Strap", manufacturer: "Example", model: "S1", localIdentifier: "left"),
        DeviceRecord(),  // every property nil: still a (empty) Device message
    ]
    static let quantities: [Double] = [0, -0.0, 1, -1, 72.5, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, .infinity, 1e-300]
    static let categories: [Int64] = [0, 1, -1, 127, 128, 300, .max, .min]
    static let instants: [Int64] = [0, 1, -1, 127, 128, 1_767_222_000_000_000, -62_135_596_800_000_000, .max, .min]

    /// Rows varying one field at a time around a plain heart-rate sample.
    static func plainRows() -> [FetchedSample] {
        var rows: [FetchedSample] = []
        func row(_ value: FetchedSample.Value = .quantity(60), start: Int64 = 1_767_222_000_000_000, end: Int64 = 1_767_222_060_000_000,
                 source: Int32? = 0, device: Int32? = nil) -> FetchedSample {
            FetchedSample(uuid: UUID(), startUS: start, endUS: end, value: value, source: source, device: device)
        }
        rows += quantities.map { row(.quantity($0)) }
        rows += categories.map { row(.category($0)) }
        rows += instants.map { row(start: $0) } + instants.map { row(end: $0) }
        rows += (0..<Int32(sources.count)).map { row(source: $0) } + [row(source: nil)]
        rows += (0..<Int32(devices.count)).map { row(device: $0) }
        rows.append(FetchedSample(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), startUS: 5, endUS: 6,
                                  value: .quantity(1), source: nil, device: nil))
        return rows
    }

    /// A record the encoder must hand to protobuf-c: metadata, a device and a source of its own.
    static let whole = SampleRecord(
        uuid: UUID(), typeIdentifier: heartRate, startDate: Date(timeIntervalSince1970: 1_767_222_000),
        endDate: Date(timeIntervalSince1970: 1_767_222_060), value: .quantity(61, unit: "count/s"),
        metadata: ["HKWasUserEntered": .bool(true), "note": .string("whole")], device: devices[0], source: sources[0])

    static func expectSameBytes(_ batch: FetchedSampleBatch, encoder: inout FetchedSampleEncoder) throws {
        let bytes = encoder.wireBytes(batch)
        let expected = SampleList(batch.sampleRecords()).wireBytes()
        #expect(bytes == expected)
        // Records compare after a trip through protobuf-c's path (-0.0 arrives as 0.0 on both).
        #expect(try SampleList(wire: bytes).samples == SampleList(wire: expected).samples)
    }

    // The last pair: a type and unit whose fields need two-byte lengths, so every plain sample
    // is longer than 127 bytes (its own length two bytes too): the sizes the encoder computes
    // before writing must follow.
    @Test(arguments: [(heartRate, "count/s"), ("HKCategoryTypeIdentifierSleepAnalysis", ""), ("", ""),
                      (String(repeating: "T", count: 200), String(repeating: "u", count: 130))])
    func plainRowsEncodeAsProtobufCDoes(type: String, unit: String) throws {
        var encoder = FetchedSampleEncoder()
        let batch = FetchedSampleBatch(typeIdentifier: type, unit: unit, sources: Self.sources, devices: Self.devices, rows: Self.plainRows())
        try Self.expectSameBytes(batch, encoder: &encoder)
    }

    /// Whole records between plain rows, and a second batch whose tables grew: the encoder's
    /// remembered parts must follow the batch's indexes.
    @Test func wholeRecordsAndGrowingTablesAcrossBatches() throws {
        var encoder = FetchedSampleEncoder()
        let plain = FetchedSample(uuid: UUID(), startUS: 10, endUS: 20, value: .quantity(3), source: 0, device: 0)
        var batch = FetchedSampleBatch(typeIdentifier: Self.heartRate, unit: "count/s", sources: [Self.sources[0]], devices: [Self.devices[0]],
                                       rows: [plain, FetchedSample(uuid: Self.whole.uuid, startUS: 0, endUS: 0, value: .record(0), source: nil, device: nil), plain],
                                       records: [Self.whole])
        try Self.expectSameBytes(batch, encoder: &encoder)
        batch.sources += Self.sources.dropFirst()
        batch.devices += Self.devices.dropFirst()
        batch.records = []
        batch.rows = [plain] + (0..<Int32(Self.sources.count)).map {
            FetchedSample(uuid: UUID(), startUS: 30, endUS: 40, value: .quantity(Double($0)), source: $0, device: $0 % 2)
        }
        try Self.expectSameBytes(batch, encoder: &encoder)
        try Self.expectSameBytes(FetchedSampleBatch(typeIdentifier: Self.heartRate, unit: "count/s"), encoder: &encoder)
    }

    /// A whole batch of the size queries send (500 rows), plain rows of every shape with
    /// records among them: one buffer sized beforehand must hold exactly protobuf-c's bytes.
    @Test func fullBatchOfMixedRows() throws {
        var encoder = FetchedSampleEncoder()
        let shapes = Self.plainRows()
        var rows: [FetchedSample] = []
        var records: [SampleRecord] = []
        for index in 0..<WireLimits.samplesPerBatch {
            if index % 97 == 0 {
                rows.append(FetchedSample(uuid: Self.whole.uuid, startUS: 0, endUS: 0, value: .record(records.count), source: nil, device: nil))
                records.append(Self.whole)
            } else {
                rows.append(shapes[index % shapes.count])
            }
        }
        let batch = FetchedSampleBatch(typeIdentifier: Self.heartRate, unit: "count/s", sources: Self.sources, devices: Self.devices,
                                       rows: rows, records: records)
        try Self.expectSameBytes(batch, encoder: &encoder)
    }

    @Test(arguments: [UInt64(0), 1, 127, 128, 16_383, 16_384, UInt64(Int64.max), .max])
    func varintLengthIsTheBytesWritten(_ value: UInt64) {
        var written: [UInt8] = []
        ProtobufCodec.appendVarint(value, to: &written)
        #expect(FetchedSampleEncoder.varintLength(value) == written.count)
    }
}
