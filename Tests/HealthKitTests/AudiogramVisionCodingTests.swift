import Foundation
import Testing
@testable import HealthKit

/// Apple's audiogram values (`HKAudiogramSensitivityPoint`, `HKAudiogramSensitivityTest`,
/// `HKAudiogramSensitivityPointClampingRange`) and vision values (`HKVisionPrism`,
/// `HKGlassesLensSpecification`, `HKContactsLensSpecification`) are `NSObject`s conforming to
/// `NSSecureCoding` (`HKLensSpecification` a plain `NSObject`; developer.apple.com, "Conforms
/// To"). Round trips keep equality; an archive the initializers would refuse — out of range,
/// wrong unit kind, unknown raw value, missing field — decodes as nil without trapping.
/// Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct AudiogramVisionCodingTests {
    static func dBHL(_ value: Double) -> HKQuantity { HKQuantity(unit: .decibelHearingLevel(), doubleValue: value) }

    static func point() throws -> HKAudiogramSensitivityPoint {
        let range = try HKAudiogramSensitivityPointClampingRange(lowerBound: NSNumber(value: -20), upperBound: NSNumber(value: 90))
        return try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1_000), tests: [
            HKAudiogramSensitivityTest(sensitivity: dBHL(25), type: .air, masked: true, side: .left, clampingRange: range),
            HKAudiogramSensitivityTest(sensitivity: dBHL(160), type: .air, masked: false, side: .right, clampingRange: nil),
        ])
    }

    // MARK: Audiogram

    @Test func clampingRangesSurviveWithOneOrBothBounds() throws {
        for (lower, upper) in [(NSNumber(value: -20), NSNumber(value: 160)), (nil, NSNumber(value: 0)), (NSNumber(value: 5.5), nil)] {
            let range = try HKAudiogramSensitivityPointClampingRange(lowerBound: lower, upperBound: upper)
            let restored = try SecureArchive.roundTrip(range)
            #expect(restored == range && restored.hash == range.hash && Set([range, restored]).count == 1)
            #expect(restored.lowerBound == range.lowerBound && restored.upperBound == range.upperBound)
        }
    }

    @Test func aTamperedClampingRangeIsNil() throws {
        let range = try HKAudiogramSensitivityPointClampingRange(lowerBound: NSNumber(value: 10), upperBound: NSNumber(value: 20))
        #expect(try SecureArchive.tampered(range, "clampingLowerBound", NSNumber(value: 20)) == nil)  // lower not below upper
        #expect(try SecureArchive.tampered(range, "clampingLowerBound", NSNumber(value: Double.nan)) == nil)
        #expect(try SecureArchive.tampered(range, "clampingUpperBound", NSString(string: "20")) == nil)
        #expect(try SecureArchive.decoded(HKAudiogramSensitivityPointClampingRange.self) { _ in } == nil)  // no bound at all
        #expect(try SecureArchive.tampered(range, "clampingLowerBound", nil) != nil)  // one bound is a range
    }

    @Test func testsAndPointsSurviveAndStayEqual() throws {
        let point = try Self.point()
        let restored = try SecureArchive.roundTrip(point)
        #expect(restored == point && restored.hash == point.hash && Set([point, restored]).count == 1)
        #expect(restored.tests == point.tests && restored.frequency == point.frequency)
        #expect(restored.leftEarSensitivity == Self.dBHL(25) && restored.rightEarSensitivity == Self.dBHL(160))
        #expect(restored.tests[0].clampingRange == point.tests[0].clampingRange && restored.tests[0].masked)
        for test in point.tests {
            let restoredTest = try SecureArchive.roundTrip(test)
            #expect(restoredTest == test && restoredTest.side == test.side && restoredTest.sensitivity == test.sensitivity)
        }
        let other = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: 1_000),
                                                    leftEarSensitivity: Self.dBHL(25), rightEarSensitivity: nil)
        #expect(try SecureArchive.roundTrip(other) != point)
    }

    @Test func aTamperedTestIsNil() throws {
        let test = try Self.point().tests[0]
        let cases: [(String, NSObject?)] = [
            ("sensitivity", NSNumber(value: 160.5)), ("sensitivity", NSNumber(value: -21)), ("sensitivity", NSNumber(value: Double.nan)),
            ("sensitivity", nil), ("type", NSNumber(value: 1)), ("type", NSNumber(value: 1e300)), ("side", NSNumber(value: 2)),
            ("side", NSString(string: "left")), ("masked", nil), ("clampingUpperBound", NSNumber(value: -30)),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(test, key, bad) == nil, "\(key)") }
    }

    @Test func aTamperedPointIsNil() throws {
        let point = try Self.point()
        let cases: [(String, NSObject?)] = [
            ("frequency", NSNumber(value: 30_001)), ("frequency", NSNumber(value: -1)), ("frequency", nil),
            ("testCount", NSNumber(value: 0)), ("testCount", NSNumber(value: 3)), ("testCount", NSNumber(value: Int64.max)),
            ("testCount", NSNumber(value: 1e300)), ("testCount", nil),
            ("tests.1.side", NSNumber(value: 0)),  // two tests for the left ear
            ("tests.1.sensitivity", NSNumber(value: 200)), ("tests.0.type", nil),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(point, key, bad) == nil, "\(key)") }
        #expect(try SecureArchive.tampered(point, "testCount", NSNumber(value: 1))?.tests.count == 1)  // the control
    }

    // MARK: Vision

    static let prism = HKVisionPrism(amount: HKQuantity(unit: .prismDiopter(), doubleValue: 2.5),
                                     angle: HKQuantity(unit: .degreeAngle(), doubleValue: 135), eye: .left)

    @Test func prismsMadeEitherWaySurvive() throws {
        let components = HKVisionPrism(verticalAmount: HKQuantity(unit: .prismDiopter(), doubleValue: 1),
                                       verticalBase: .up, horizontalAmount: HKQuantity(unit: .prismDiopter(), doubleValue: 0.5),
                                       horizontalBase: .in, eye: .right)
        for prism in [Self.prism, components] {
            let restored = try SecureArchive.roundTrip(prism)
            #expect(restored == prism && restored.hash == prism.hash && restored.eye == prism.eye)
            #expect(restored.amount == prism.amount && restored.angle == prism.angle)
            #expect(restored.verticalBase == prism.verticalBase && restored.horizontalBase == prism.horizontalBase)
        }
    }

    @Test func aTamperedPrismIsNil() throws {
        let cases: [(String, NSObject?)] = [
            ("eye", NSNumber(value: 0)), ("eye", NSNumber(value: 3)), ("eye", nil),
            ("amount.unit", NSString(string: "m")), ("angle.unit", NSString(string: "pD")), ("amount.value", NSNumber(value: Double.infinity)),
            ("angle.value", nil),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(Self.prism, key, bad) == nil, "\(key)") }
    }

    static let millimeter = HKUnit.meterUnit(with: .milli)

    @Test func lensSpecificationsSurviveWithAndWithoutTheirOptionalFields() throws {
        let full = HKGlassesLensSpecification(
            sphere: HKQuantity(unit: .diopter(), doubleValue: -2.25), cylinder: HKQuantity(unit: .diopter(), doubleValue: -0.5),
            axis: HKQuantity(unit: .degreeAngle(), doubleValue: 180), addPower: HKQuantity(unit: .diopter(), doubleValue: 1),
            vertexDistance: HKQuantity(unit: Self.millimeter, doubleValue: 12), prism: Self.prism,
            farPupillaryDistance: HKQuantity(unit: Self.millimeter, doubleValue: 31), nearPupillaryDistance: HKQuantity(unit: .meter(), doubleValue: 0.029))
        let bare = HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: 0), cylinder: nil, axis: nil, addPower: nil,
                                              vertexDistance: nil, prism: nil, farPupillaryDistance: nil, nearPupillaryDistance: nil)
        for lens in [full, bare] {
            let restored = try SecureArchive.roundTrip(lens)
            #expect(restored == lens && restored.hash == lens.hash && restored.prism == lens.prism)
            #expect(restored.nearPupillaryDistance == lens.nearPupillaryDistance && restored.cylinder == lens.cylinder)
        }
        let contacts = HKContactsLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: 3), cylinder: nil,
                                                   axis: HKQuantity(unit: .degreeAngle(), doubleValue: 90), addPower: nil,
                                                   baseCurve: HKQuantity(unit: Self.millimeter, doubleValue: 8.6),
                                                   diameter: HKQuantity(unit: Self.millimeter, doubleValue: 14.2))
        let restored = try SecureArchive.roundTrip(contacts)
        #expect(restored == contacts && restored.baseCurve == contacts.baseCurve && restored.diameter == contacts.diameter)
        #expect((contacts as HKLensSpecification) != (bare as HKLensSpecification))
    }

    @Test func aTamperedLensSpecificationIsNil() throws {
        let glasses = HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: 1), cylinder: nil, axis: nil,
                                                 addPower: nil, vertexDistance: HKQuantity(unit: Self.millimeter, doubleValue: 12),
                                                 prism: Self.prism, farPupillaryDistance: nil, nearPupillaryDistance: nil)
        let glassesCases: [(String, NSObject?)] = [
            ("sphere.unit", nil), ("sphere.value", nil), ("sphere.unit", NSString(string: "degAngle")),
            ("axis.unit", NSString(string: "D")), ("vertexDistance.unit", NSString(string: "D")),
            ("prism.eye", NSNumber(value: 7)), ("prism.eye", nil), ("prism.amount.unit", nil), ("farPupillaryDistance.value", NSNumber(value: Double.nan)),
        ]
        for (key, bad) in glassesCases { #expect(try SecureArchive.tampered(glasses, key, bad) == nil, "\(key)") }
        let contacts = HKContactsLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: 1), cylinder: nil, axis: nil,
                                                   addPower: nil, baseCurve: HKQuantity(unit: Self.millimeter, doubleValue: 8),
                                                   diameter: nil)
        #expect(try SecureArchive.tampered(contacts, "baseCurve.unit", NSString(string: "s")) == nil)
        #expect(try SecureArchive.tampered(contacts, "diameter.value", NSNumber(value: 14)) == nil)  // a value without its unit
    }
}
