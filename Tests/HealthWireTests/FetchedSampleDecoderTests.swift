import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// The SDK's reader of answers must give what protobuf-c's path (`SampleList(wire:)`) gives
/// for every message — the same records, or a failure where that path fails — while reading
/// healthd's plain samples itself.
@Suite(.timeLimit(.minutes(10))) struct FetchedSampleDecoderTests {
    /// `bytes` through a fresh decoder and through protobuf-c: both fail, or both give the same records.
    static func expectSameOutcome(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        var decoder = FetchedSampleDecoder()
        // Compared as the bytes protobuf-c makes of them: an altered double may be a NaN, which
        // is not equal to itself as a record value.
        let fetched = (try? decoder.decode(bytes).sampleRecords()).map { SampleList($0).wireBytes() }
        let unpacked = (try? SampleList(wire: bytes).samples).map { SampleList($0).wireBytes() }
        #expect(fetched == unpacked, "\(bytes.count) bytes", sourceLocation: sourceLocation)
    }

    /// What healthd sends for a query: plain rows of one type (FetchedSampleEncoder), three
    /// sources, two devices, a whole record with metadata between them.
    static func answer(rows count: Int) -> FetchedSampleBatch {
        let sources = [SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1"),
                       SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone"),
                       SourceRecord(bundleIdentifier: "org.example.ring", name: "Ring", version: "2.0")]
        let devices = [DeviceRecord(name: "Strap", manufacturer: "Example"), DeviceRecord()]
        let whole = SampleRecord(uuid: UUID(), typeIdentifier: FetchedSampleEncoderTests.heartRate,
                                 startDate: Date(timeIntervalSince1970: 1_767_222_000), endDate: Date(timeIntervalSince1970: 1_767_222_001),
                                 value: .quantity(1.5, unit: "count/s"), metadata: ["HKWasUserEntered": .bool(true)], source: sources[0])
        let rows = (0..<count).map { (index: Int) -> FetchedSample in
            let start: Int64 = 1_767_222_000_000_000 + Int64(index) * 60_000_000
            let value: FetchedSample.Value = index == 2 ? .record(0) : .quantity(Double(index % 90))
            let device: Int32? = index % 4 == 0 ? nil : Int32(index % 2)
            return FetchedSample(uuid: UUID(), startUS: start, endUS: start + 60_000_000, value: value, source: Int32(index % 3), device: device)
        }
        return FetchedSampleBatch(typeIdentifier: FetchedSampleEncoderTests.heartRate, unit: "count/s", sources: sources,
                                  devices: devices, rows: rows, records: count > 2 ? [whole] : [])
    }

    @Test func healthdsPlainRowsAreReadWithoutProtobufC() throws {
        var encoder = FetchedSampleEncoder()
        var decoder = FetchedSampleDecoder()
        let sent = Self.answer(rows: 500)
        let first = try decoder.decode(encoder.wireBytes(sent))
        #expect(first.sampleRecords() == sent.sampleRecords())
        // Only the record with metadata went through protobuf-c; the parts were shared.
        #expect(first.records.count == 1)
        #expect(first.sources.count == 3 && first.devices.count == 2)
        // A second batch of the answer reuses what the first taught the decoder.
        let second = try decoder.decode(encoder.wireBytes(sent))
        #expect(second.sampleRecords() == sent.sampleRecords() && second.sources.count == 3)
    }

    /// Any batch the wire can carry — several types, units, categories, metadata, a string larger
    /// than an arena block, twelve sources (beyond what is shared per answer) — reads as protobuf-c reads it.
    @Test func everyKindOfBatchReadsAsProtobufCReadsIt() throws {
        let samples = SampleWireBuilderTests.samples
        var decoder = FetchedSampleDecoder()
        #expect(try decoder.decode(SampleList(samples).wireBytes()).sampleRecords() == samples)
        for (kind, unit) in [(FetchedSampleEncoderTests.heartRate, "count/s"), ("HKCategoryTypeIdentifierSleepAnalysis", "")] {
            let rows = FetchedSampleEncoderTests.plainRows().filter { (row: FetchedSample) -> Bool in
                let isCategory: Bool
                if case .category = row.value { isCategory = true } else { isCategory = false }
                return isCategory == unit.isEmpty
            }
            let plain = FetchedSampleBatch(typeIdentifier: kind, unit: unit, sources: FetchedSampleEncoderTests.sources,
                                           devices: FetchedSampleEncoderTests.devices, rows: rows)
            var encoder = FetchedSampleEncoder()
            var fresh = FetchedSampleDecoder()
            let bytes = encoder.wireBytes(plain)
            #expect(try fresh.decode(bytes).sampleRecords() == SampleList(wire: bytes).samples)
        }
        Self.expectSameOutcome([])
    }

    /// Extremes are inputs: every truncation of an answer, and every byte of it replaced by
    /// values that change a tag, a length or a varint's continuation, reads as protobuf-c reads
    /// it (the same records or a failure) — and never reads past the message.
    @Test func truncatedAndAlteredAnswersReadAsProtobufCReadsThem() {
        var encoder = FetchedSampleEncoder()
        let bytes = encoder.wireBytes(Self.answer(rows: 4))
        for length in 0..<bytes.count { Self.expectSameOutcome(Array(bytes.prefix(length))) }
        for index in bytes.indices {
            for replacement: UInt8 in [0x00, 0x01, 0x0A, 0x12, 0x80, 0xFF, bytes[index] ^ 0x08] {
                var altered = bytes
                altered[index] = replacement
                Self.expectSameOutcome(altered)
            }
        }
    }
}
