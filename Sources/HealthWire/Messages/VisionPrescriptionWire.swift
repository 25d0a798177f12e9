import COpenHealthProto
import Foundation
import HealthModel

/// vision.proto `VisionPrescription`: a vision prescription's value inside `Sample` (field 33).
/// Bounds and field rules are `VisionPrescriptionRules`' (the validator's); the reader only
/// copies what protobuf-c unpacked, and a prescription holds at most two lenses by shape.
enum VisionPrescriptionWire {
    static func build(_ value: VisionPrescriptionValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__VisionPrescription> {
        arena.message { (wire: inout Openhealth__V1__VisionPrescription) in
            wire.prescription_type = Int64(value.kind)
            wire.has_lenses = value.hasLenses ? 1 : 0
            if let expiration = value.expirationDate {
                wire.has_expiration = 1
                wire.expiration_us = expiration.microsecondsSince1970
            }
            wire.right_eye = value.rightEye.map { lens($0, in: arena) }
            wire.left_eye = value.leftEye.map { lens($0, in: arena) }
            if let brand = value.brand {
                wire.has_brand = 1
                wire.brand = arena.string(brand)
            }
        }
    }

    static func read(_ wire: Openhealth__V1__VisionPrescription) throws(WireDecodeError) -> VisionPrescriptionValue {
        guard let kind = Int(exactly: wire.prescription_type) else { throw .invalidField("vision prescription type out of range") }
        var rightEye: LensSpecificationValue?, leftEye: LensSpecificationValue?
        if let right = wire.right_eye { rightEye = try lens(right.pointee) }
        if let left = wire.left_eye { leftEye = try lens(left.pointee) }
        return VisionPrescriptionValue(kind: kind, hasLenses: wire.has_lenses != 0,
                                       expirationDate: wire.has_expiration != 0 ? Date(microsecondsSince1970: wire.expiration_us) : nil,
                                       rightEye: rightEye, leftEye: leftEye,
                                       brand: wire.has_brand != 0 ? WireRead.string(wire.brand) : nil)
    }

    private static func lens(_ value: LensSpecificationValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__LensSpecification> {
        arena.message { (wire: inout Openhealth__V1__LensSpecification) in
            wire.sphere = value.sphere
            wire.cylinder = measure(value.cylinder, in: arena)
            wire.axis = measure(value.axis, in: arena)
            wire.add_power = measure(value.addPower, in: arena)
            wire.vertex_distance = measure(value.vertexDistance, in: arena)
            wire.prism = value.prism.map { prism in
                arena.message { (wire: inout Openhealth__V1__VisionPrism) in
                    wire.amount = prism.amount
                    wire.angle = prism.angle
                    wire.eye = Int64(prism.eye)
                }
            }
            wire.far_pupillary_distance = measure(value.farPupillaryDistance, in: arena)
            wire.near_pupillary_distance = measure(value.nearPupillaryDistance, in: arena)
            wire.base_curve = measure(value.baseCurve, in: arena)
            wire.diameter = measure(value.diameter, in: arena)
        }
    }

    private static func lens(_ wire: Openhealth__V1__LensSpecification) throws(WireDecodeError) -> LensSpecificationValue {
        var prism: VisionPrismValue?
        if let wirePrism = wire.prism?.pointee {
            guard let eye = Int(exactly: wirePrism.eye) else { throw .invalidField("prism eye out of range") }
            prism = VisionPrismValue(amount: wirePrism.amount, angle: wirePrism.angle, eye: eye)
        }
        return LensSpecificationValue(sphere: wire.sphere, cylinder: wire.cylinder?.pointee.value, axis: wire.axis?.pointee.value,
                                      addPower: wire.add_power?.pointee.value, vertexDistance: wire.vertex_distance?.pointee.value,
                                      prism: prism, farPupillaryDistance: wire.far_pupillary_distance?.pointee.value,
                                      nearPupillaryDistance: wire.near_pupillary_distance?.pointee.value,
                                      baseCurve: wire.base_curve?.pointee.value, diameter: wire.diameter?.pointee.value)
    }

    private static func measure(_ value: Double?, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Measure>? {
        value.map { number in arena.message { (wire: inout Openhealth__V1__Measure) in wire.value = number } }
    }
}
