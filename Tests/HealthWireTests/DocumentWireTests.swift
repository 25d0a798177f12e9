import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// A CDA document sample on the wire (Sample.value 35, documents.proto): the bytes travel
/// unchanged, and healthd's decoder refuses a document over `DocumentRules.maximumBytes` before
/// copying it (at the limit and one past it). Query batches of documents stay inside one frame.
@Suite(.timeLimit(.minutes(10))) struct DocumentWireTests {
    static func record(_ bytes: Int) -> SampleRecord {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue, startDate: date, endDate: date,
                            value: .document(DocumentValue(data: Data(repeating: 0x41, count: bytes))))
    }

    @Test func theBytesTravelUnchanged() throws {
        let sample = Self.record(1)
        #expect(try SampleList(wire: SampleList([sample]).wireBytes()).samples == [sample])
    }

    @Test func aDocumentOverTheLimitIsRefusedWhenDecoded() throws {
        let atLimit = Self.record(DocumentRules.maximumBytes)
        #expect(try SampleList(wire: SampleList([atLimit]).wireBytes()).samples == [atLimit])
        let past = Self.record(DocumentRules.maximumBytes + 1)
        #expect(throws: WireDecodeError.self) { try SampleList(wire: SampleList([past]).wireBytes()) }
    }

    /// A full batch of the largest documents fits a frame; the sample batch size would not.
    @Test func aBatchOfLargestDocumentsFitsOneFrame() {
        let batchSize = WireLimits.samplesPerBatch(types: [HKDocumentTypeIdentifier.CDA.rawValue])
        let batch = Array(repeating: Self.record(DocumentRules.maximumBytes), count: batchSize)
        #expect(SampleList(batch).wireBytes().count < WireLimits.maxFrameBytes - 1024)
        #expect(WireLimits.samplesPerBatch(types: [HKQuantityTypeIdentifier.stepCount.rawValue]) == WireLimits.samplesPerBatch)
    }
}
