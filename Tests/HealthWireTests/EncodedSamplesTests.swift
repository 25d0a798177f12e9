import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// `EncodedSamples` builds sample lists and anchored batches from the bytes each sample was
/// measured as: they must be protobuf-c's bytes exactly, whichever samples were measured first
/// (none, some, all, some not sent), for every shape of the batch's other fields.
@Suite(.timeLimit(.minutes(10))) struct EncodedSamplesTests {
    static let heartRate = FetchedSampleEncoderTests.heartRate
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue

    /// Plain, with metadata and a device, a correlation with its samples, and an empty-valued one.
    static func records() -> [SampleRecord] {
        let start = Date(timeIntervalSince1970: 1_767_222_000)
        func quantity(_ type: String, _ value: Double, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(60),
                         value: .quantity(value, unit: type == heartRate ? "count/s" : "mmHg"), metadata: metadata,
                         device: metadata.isEmpty ? nil : FetchedSampleEncoderTests.devices[0], source: FetchedSampleEncoderTests.sources[0])
        }
        let pressure = SampleRecord(uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue, startDate: start,
                                    endDate: start, value: .correlation([quantity(systolic, 120), quantity(diastolic, 80)]),
                                    metadata: ["note": .string(String(repeating: "n", count: 5_000))])
        return [quantity(heartRate, 1), FetchedSampleEncoderTests.whole, pressure, quantity(heartRate, 0),
                quantity(heartRate, 72, metadata: ["HKWasUserEntered": .bool(false), "zone": .number(3)])]
    }

    static let deletions: [[DeletedObjectRecord]] = [
        [], [DeletedObjectRecord(uuid: UUID())],
        [DeletedObjectRecord(uuid: UUID(), syncIdentity: SyncIdentity(identifier: String(repeating: "s", count: 4_096), version: 7)),
         DeletedObjectRecord(uuid: UUID(), syncIdentity: SyncIdentity(identifier: "a", version: 0))],
    ]

    /// Which of the records are measured before the list is built: none, each alone, all, and
    /// all plus one that is not sent (read past a cut).
    static func measuredSets(_ records: [SampleRecord]) -> [[SampleRecord]] {
        [[]] + records.map { [$0] } + [records, records + [FetchedSampleEncoderTests.whole]]
    }

    @Test func sampleListsAreProtobufCsBytes() {
        let records = Self.records()
        for count in 0...records.count {
            let sent = Array(records.prefix(count))
            for measured in Self.measuredSets(sent) {
                let encoded = EncodedSamples()
                for record in measured { _ = encoded.size(of: record) }
                #expect(encoded.sampleList(sent) == SampleList(sent).wireBytes(), "\(count) sent, \(measured.count) measured")
            }
        }
    }

    @Test func aMeasuredSizeIsTheSamplesEntryInTheList() {
        let encoded = EncodedSamples()
        for record in Self.records() {
            #expect(encoded.size(of: record) == SampleList([record]).wireBytes().count)
        }
    }

    @Test func anchoredBatchesAreProtobufCsBytes() {
        let records = Self.records()
        for count in [0, 1, records.count] {
            let sent = Array(records.prefix(count))
            for deleted in Self.deletions {
                for (end, anchor) in [(false, [UInt8]()), (true, [UInt8](repeating: 0xAB, count: 64))] {
                    for measured in Self.measuredSets(sent) {
                        let encoded = EncodedSamples()
                        for record in measured { _ = encoded.size(of: record) }
                        let expected = AnchoredQueryBatch(samples: sent, deletedObjects: deleted, endOfDelivery: end, anchor: anchor).wireBytes()
                        #expect(encoded.anchoredBatch(samples: sent, deletedObjects: deleted, endOfDelivery: end, anchor: anchor) == expected,
                                "\(count) samples, \(deleted.count) deleted, end \(end), \(measured.count) measured")
                    }
                }
            }
        }
    }
}
