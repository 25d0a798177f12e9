import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// Decoding reuses the strings a batch repeats — type identifier, unit, metadata keys by position
/// (`RecentWireStrings`, issue 17). What that must not change: every sample decodes to exactly
/// what it was, when the string at a place changes from one sample to the next by one byte, by
/// length, or not at all, and when a key moves to another position.
@Suite(.timeLimit(.minutes(10))) struct RecentWireStringsTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func sample(_ type: String, _ unit: String, _ metadata: [String: MetadataValue]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(60),
                     value: .quantity(1, unit: unit), metadata: metadata)
    }

    /// Longer than a small string (15 bytes), so each is its own allocation; they differ only in
    /// their last byte, or by one byte of length.
    static let longKeyA = "org.example.metadata.keyA"
    static let longKeyB = "org.example.metadata.keyB"
    static let longKeyAA = "org.example.metadata.keyAA"

    static let samples: [SampleRecord] = [
        sample("HKQuantityTypeIdentifierHeartRate", "count/min", [longKeyA: .string("1")]),
        sample("HKQuantityTypeIdentifierHeartRate", "count/min", [longKeyB: .string("2")]),
        sample("HKQuantityTypeIdentifierHeartRatE", "count/s", [longKeyAA: .string("3")]),
        sample("HKQuantityTypeIdentifierHeartRate", "count/min", [longKeyA: .string("4"), longKeyB: .number(5)]),
        sample("HKQuantityTypeIdentifierHeartRate", "count/min", [:]),
        sample("HKQuantityTypeIdentifierHeartRate", "count/mi", [longKeyB: .bool(true), longKeyA: .string("6"),
                                                                  HKMetadataKeySyncIdentifier: .string("x"), HKMetadataKeySyncVersion: .number(1)]),
        sample("HKQuantityTypeIdentifierHeartRat", "", [longKeyA: .string("7")]),
        sample("", "count/min", [longKeyA: .string("8")]),
    ] + (0..<12).map { index in
        // More keys than positions are remembered, each sample listing them in another order.
        let keys = (0..<12).map { "org.example.metadata.key\(($0 + index) % 12)" }
        return sample("HKQuantityTypeIdentifierHeartRate", "count/min",
                      Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, MetadataValue.number(Double($0 + index))) }))
    }

    @Test func aBatchDecodesToWhatEachSampleIsAlone() throws {
        let batch = try SampleList(wire: SampleList(Self.samples).wireBytes()).samples
        #expect(batch == Self.samples)
        let alone = try Self.samples.map { try SampleList(wire: SampleList([$0]).wireBytes()).samples }
        #expect(alone == Self.samples.map { [$0] })
        let imported = try ImportBatch(wire: ImportBatch(origin: "Apple Health", sourceName: "Watch", sourceVersion: nil,
                                                         samples: Self.samples).wireBytes())
        #expect(imported.samples == Self.samples)
    }
}
