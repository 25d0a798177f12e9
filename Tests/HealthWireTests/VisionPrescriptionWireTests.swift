import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// A vision prescription on the wire (Sample.value 33, vision.proto): every optional field
/// travels as set or unset (an unset field is not a zero), both eyes, the brand and expiration.
@Suite(.timeLimit(.minutes(10))) struct VisionPrescriptionWireTests {
    static func record(_ value: VisionPrescriptionValue) -> SampleRecord {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: date, endDate: date,
                            value: .visionPrescription(value))
    }

    @Test func everyFieldTravels() throws {
        let right = LensSpecificationValue(sphere: -2.25, cylinder: -0.5, axis: 90, addPower: 1.5, vertexDistance: 12,
                                           prism: VisionPrismValue(amount: 0.25, angle: 15, eye: 2),
                                           farPupillaryDistance: 32, nearPupillaryDistance: 30)
        let glasses = Self.record(VisionPrescriptionValue(kind: 1, hasLenses: true, expirationDate: Date(timeIntervalSince1970: 1_800_000_000),
                                                          rightEye: right, leftEye: LensSpecificationValue(sphere: 0)))
        let contacts = Self.record(VisionPrescriptionValue(kind: 2, hasLenses: true, expirationDate: nil,
                                                           leftEye: LensSpecificationValue(sphere: -1, baseCurve: 8.6, diameter: 14),
                                                           brand: ""))
        let plain = Self.record(VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: nil))
        let samples = [glasses, contacts, plain]
        #expect(try SampleList(wire: SampleList(samples).wireBytes()).samples == samples)
    }

    /// Zero and unset differ: a cylinder of 0 D comes back as 0, an absent one as nil.
    @Test func zeroIsNotUnset() throws {
        let zero = Self.record(VisionPrescriptionValue(kind: 1, hasLenses: true, expirationDate: Date(timeIntervalSince1970: 0),
                                                       rightEye: LensSpecificationValue(sphere: 0, cylinder: 0, axis: 0)))
        let decoded = try SampleList(wire: SampleList([zero]).wireBytes()).samples
        guard case let .visionPrescription(value) = decoded.first?.value else {
            Issue.record("not a prescription")
            return
        }
        #expect(value.rightEye?.cylinder == 0)
        #expect(value.rightEye?.addPower == nil)
        #expect(value.expirationDate == Date(timeIntervalSince1970: 0))
        #expect(value.leftEye == nil)
        #expect(value.brand == nil)
    }
}
