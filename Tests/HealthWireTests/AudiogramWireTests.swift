import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// An audiogram on the wire (Sample.value 32, audiogram.proto): every point, test, flag and
/// clamping bound travels (an absent bound stays absent, 0 stays 0), and healthd's decoder
/// refuses more points or tests than `AudiogramWire`'s caps before copying them (tested at each
/// cap and one past it); HealthKit's exact limits are the validator's rule.
@Suite(.timeLimit(.minutes(10))) struct AudiogramWireTests {
    static func record(_ points: [AudiogramValue.Point]) -> SampleRecord {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierAudiogram, startDate: date,
                            endDate: date.addingTimeInterval(300), value: .audiogram(AudiogramValue(points: points)))
    }

    static func roundTrip(_ sample: SampleRecord) throws -> SampleRecord? {
        try SampleList(wire: SampleList([sample]).wireBytes()).samples.first
    }

    @Test func everyFieldTravels() throws {
        let sample = Self.record([
            AudiogramValue.Point(frequency: 250, tests: [AudiogramValue.Test(sensitivity: -20, side: 0),
                                                         AudiogramValue.Test(sensitivity: 160, masked: true, side: 1,
                                                                             clampingLowerBound: 0, clampingUpperBound: nil)]),
            AudiogramValue.Point(frequency: 8000.5, tests: [AudiogramValue.Test(sensitivity: 35.25, side: 1,
                                                                                clampingLowerBound: nil, clampingUpperBound: 90)]),
        ])
        #expect(try Self.roundTrip(sample) == sample)
    }

    @Test func zeroPointsTravel() throws {
        let sample = Self.record([])
        #expect(try Self.roundTrip(sample) == sample)
    }

    @Test func pointsPastTheCapAreRefusedWhenDecoded() throws {
        let point = AudiogramValue.Point(frequency: 1000, tests: [AudiogramValue.Test(sensitivity: 20, side: 0)])
        let atCap = Self.record(Array(repeating: point, count: AudiogramWire.maxPoints))
        #expect(try Self.roundTrip(atCap) == atCap)
        let past = Self.record(Array(repeating: point, count: AudiogramWire.maxPoints + 1))
        #expect(throws: WireDecodeError.self) { try Self.roundTrip(past) }
    }

    @Test func testsPastTheCapAreRefusedWhenDecoded() throws {
        let test = AudiogramValue.Test(sensitivity: 20, side: 0)
        let atCap = Self.record([AudiogramValue.Point(frequency: 1000, tests: Array(repeating: test, count: AudiogramWire.maxTestsPerPoint))])
        #expect(try Self.roundTrip(atCap) == atCap)
        let past = Self.record([AudiogramValue.Point(frequency: 1000, tests: Array(repeating: test, count: AudiogramWire.maxTestsPerPoint + 1))])
        #expect(throws: WireDecodeError.self) { try Self.roundTrip(past) }
    }
}
