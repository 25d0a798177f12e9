import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// Encoding shares a batch's repeated parts (type, unit, source, device) between samples and
/// hands memory out of a few arena blocks; neither may change a byte of what is sent.
@Suite(.timeLimit(.minutes(10))) struct SampleWireBuilderTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// 1,200 samples from 12 sources in turn (more than the builder remembers, so shared parts
    /// are also dropped and rebuilt), versions and devices varying, some with metadata, one with
    /// a string larger than any arena block.
    static let samples: [SampleRecord] = (0..<1_200).map { index in
        let start = Self.start.addingTimeInterval(Double(index) * 60)
        let source = SourceRecord(bundleIdentifier: "org.example.app\(index % 12)", name: "App \(index % 12)",
                                  version: index % 5 == 0 ? nil : "\(index % 3)")
        let device = index % 4 == 0 ? nil : DeviceRecord(name: "Watch \(index % 10)", manufacturer: "Example",
                                                         localIdentifier: index % 2 == 0 ? "left" : nil)
        var metadata: [String: MetadataValue] = [:]
        if index % 7 == 0 { metadata = ["HKWasUserEntered": .bool(true), "note": .string("sample \(index)")] }
        if index == 600 { metadata["long"] = .string(String(repeating: "x", count: 300_000)) }
        let value: SampleRecord.Value = index % 3 == 0 ? .category(index % 4) : .quantity(Double(index), unit: index % 2 == 0 ? "count" : "count/min")
        return SampleRecord(uuid: UUID(), typeIdentifier: index % 3 == 0 ? "HKCategoryTypeIdentifierSleepAnalysis" : "HKQuantityTypeIdentifierHeartRate",
                            startDate: start, endDate: start.addingTimeInterval(60), value: value, metadata: metadata,
                            device: device, source: source)
    }

    @Test func aLargeVariedBatchRoundTrips() throws {
        #expect(try SampleList(wire: SampleList(Self.samples).wireBytes()).samples == Self.samples)
    }

    /// A repeated field's bytes are each element's tag, length and bytes in turn, so a batch
    /// encoded with shared parts must equal its samples encoded one message each (no sharing).
    @Test func sharingPartsChangesNoByte() {
        let separately = Self.samples.flatMap { SampleList([$0]).wireBytes() }
        #expect(SampleList(Self.samples).wireBytes() == separately)
        let batch = AnchoredQueryBatch(samples: Self.samples, deletedObjects: [], endOfDelivery: false)
        let separateBatches = Self.samples.flatMap { AnchoredQueryBatch(samples: [$0], deletedObjects: [], endOfDelivery: false).wireBytes() }
        #expect(batch.wireBytes() == separateBatches)
    }
}
