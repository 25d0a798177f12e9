import Foundation
import HealthKit
import Testing

/// The SDK's audiogram classes against Apple's header and pages: raw values
/// (HKAudiogramSensitivityTest.h: HKAudiogramConductionTypeAir = 0, HKAudiogramSensitivityTestSideLeft = 0,
/// …Right = 1), units (developer.apple.com/documentation/healthkit/hkaudiogramsensitivitypoint/frequency:
/// hertz; …/leftearsensitivity: decibelHearingLevel) and the throwing initializers' refusals
/// ("Errors may include incorrect quantity units or data that is out of an expected range").
@Suite(.timeLimit(.minutes(10))) struct HKAudiogramTests {
    static let dBHL = HKUnit.decibelHearingLevel()

    static func hearing(_ value: Double) -> HKQuantity { HKQuantity(unit: dBHL, doubleValue: value) }

    @Test func rawValuesAreApplesHeaders() {
        #expect(HKAudiogramConductionType.allCases.map(\.rawValue) == [0])
        #expect(HKAudiogramSensitivityTestSide.allCases.map(\.rawValue) == [0, 1])
        #expect(HKObjectType.audiogramSampleType().identifier == "HKDataTypeIdentifierAudiogram")
    }

    @Test func theIOS13InitializerMakesOneUnmaskedAirTestPerEar() throws {
        let point = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertzUnit(with: .kilo), doubleValue: 2),
                                                    leftEarSensitivity: Self.hearing(20), rightEarSensitivity: nil)
        #expect(point.tests.map(\.side) == [.left])
        #expect(point.tests.first?.masked == false && point.tests.first?.type == .air)
        #expect(point.leftEarSensitivity?.doubleValue(for: Self.dBHL) == 20)
        #expect(point.rightEarSensitivity == nil)
        #expect(point.frequency.doubleValue(for: .hertz()) == 2000)
    }

    @Test func earSensitivityPrefersTheUnmaskedTest() throws {
        let masked = try HKAudiogramSensitivityTest(sensitivity: Self.hearing(50), type: .air, masked: true, side: .right, clampingRange: nil)
        let left = try HKAudiogramSensitivityTest(sensitivity: Self.hearing(10), type: .air, masked: false, side: .left, clampingRange: nil)
        let point = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1000), tests: [left, masked])
        #expect(point.rightEarSensitivity?.doubleValue(for: Self.dBHL) == 50)
        #expect(point.leftEarSensitivity?.doubleValue(for: Self.dBHL) == 10)
    }

    @Test func aUnitOfTheWrongDimensionThrowsInsteadOfTrapping() {
        #expect(throws: HKError.self) {
            try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .meter(), doubleValue: 1000), leftEarSensitivity: Self.hearing(10),
                                            rightEarSensitivity: nil)
        }
        #expect(throws: HKError.self) {
            try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .hertz(), doubleValue: 10), type: .air, masked: false, side: .left,
                                           clampingRange: nil)
        }
    }

    @Test(arguments: [-20.001, 160.001, .nan, .infinity, 1e308])
    func sensitivitiesOutsideApplesRangeThrow(value: Double) {
        #expect(throws: HKError.self) {
            try HKAudiogramSensitivityTest(sensitivity: Self.hearing(value), type: .air, masked: false, side: .left, clampingRange: nil)
        }
    }

    @Test func aClampingRangeKeepsItsBoundsInDBHL() throws {
        let range = try HKAudiogramSensitivityPointClampingRange(lowerBound: -10, upperBound: nil)
        #expect(range.lowerBound?.doubleValue(for: Self.dBHL) == -10)
        #expect(range.upperBound == nil)
        #expect(throws: HKError.self) { try HKAudiogramSensitivityPointClampingRange(lowerBound: 5, upperBound: 5) }
    }
}
