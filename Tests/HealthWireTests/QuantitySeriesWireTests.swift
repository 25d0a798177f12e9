import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// A quantity series on the wire (Sample field 40, SeriesDataBatch 40–42): the quantities travel
/// in order beside the sample's quantity; the decoder refuses more than
/// `QuantitySeriesRules.maximumCount` (at the limit and one past it).
@Suite(.timeLimit(.minutes(10))) struct QuantitySeriesWireTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func record(count: Int) -> SampleRecord {
        let data = (0..<count).map { QuantitySeriesDatum(value: Double($0), start: start + Double($0), end: start + Double($0) + 0.5) }
        return SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierStepCount", startDate: start,
                            endDate: start + Double(count), value: .quantity(Double(count), unit: "count"),
                            quantitySeries: QuantitySeries(count: count, minimum: 0, maximum: Double(count - 1), mostRecent: Double(count - 1),
                                                           mostRecentStart: start, mostRecentEnd: start + 1, data: data))
    }

    @Test func theQuantitiesTravelInOrderAndAFetchedSummaryWithout() throws {
        let sample = Self.record(count: 3)
        #expect(try SampleList(wire: SampleList([sample]).wireBytes()).samples == [sample])
        var fetched = sample
        fetched.quantitySeries?.data = nil
        #expect(try SampleList(wire: SampleList([fetched]).wireBytes()).samples == [fetched])
        let batch = SeriesPointBatch(firstIndex: 4, points: .quantities(sample.quantitySeries?.data ?? []), done: true)
        #expect(try SeriesPointBatch(wire: batch.wireBytes()) == batch)
    }

    @Test func moreQuantitiesThanTheLimitAreRefusedWhenDecoded() throws {
        let atLimit = Self.record(count: QuantitySeriesRules.maximumCount)
        #expect(try SampleList(wire: SampleList([atLimit]).wireBytes()).samples == [atLimit])
        let past = Self.record(count: QuantitySeriesRules.maximumCount + 1)
        #expect(throws: WireDecodeError.self) { try SampleList(wire: SampleList([past]).wireBytes()) }
    }
}
