public import Foundation

/// What every lens prescription gives, as HealthKit's `HKLensSpecification` (iOS 16): the base
/// of `HKGlassesLensSpecification` and `HKContactsLensSpecification`. Quantities keep the unit
/// they were made with; `save` converts them (sphere, cylinder and add power to diopters, axis
/// to degrees) and refuses a quantity of the wrong kind naming the field.
///
/// An `NSObject` as Apple's; the two subclasses are `NSSecureCoding` (as Apple's), archiving
/// every quantity as written (unit text and value, flat fields, through `encodeCommon` /
/// `decodeCommon` here for the shared ones). An archive decodes into what the initializers
/// accept — finite values in units of the right kind — and otherwise into nil; healthd's range
/// checks apply on `save`, as for a lens made in code. Equal when of the same class with the
/// same values saved (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public class HKLensSpecification: NSObject, @unchecked Sendable {
    /// The spherical power, in `HKUnit.diopter()`.
    public let sphere: HKQuantity
    /// The cylindrical (astigmatism) power, in diopters.
    public let cylinder: HKQuantity?
    /// The cylinder's orientation, in `HKUnit.degreeAngle()`.
    public let axis: HKQuantity?
    /// The added power for near vision, in diopters.
    public let addPower: HKQuantity?

    init(sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?) {
        self.sphere = sphere
        self.cylinder = cylinder
        self.axis = axis
        self.addPower = addPower
        super.init()
    }

    /// The fields every lens has, from a fetched value (the subclasses read their own).
    init(fetchedCommon value: LensSpecificationValue) {
        sphere = HKQuantity(unit: .diopter(), doubleValue: value.sphere)
        cylinder = Self.quantity(value.cylinder, .diopter())
        axis = Self.quantity(value.axis, .degreeAngle())
        addPower = Self.quantity(value.addPower, .diopter())
        super.init()
    }

    /// The value `save` sends: the shared fields converted; subclasses add their own.
    var value: LensSpecificationValue {
        LensSpecificationValue(sphere: sphere.doubleValue(for: .diopter()), cylinder: cylinder?.doubleValue(for: .diopter()),
                               axis: axis?.doubleValue(for: .degreeAngle()), addPower: addPower?.doubleValue(for: .diopter()))
    }

    static func quantity(_ value: Double?, _ unit: HKUnit) -> HKQuantity? {
        value.map { HKQuantity(unit: unit, doubleValue: $0) }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKLensSpecification else { return false }
        return type(of: other) == type(of: self) && other.value == value
    }

    public override var hash: Int { value.hashValue }

    // MARK: Archive fields shared by the subclasses' NSSecureCoding

    func encodeCommon(with coder: NSCoder) {
        coder.encodeQuantity(sphere, forKey: "sphere")
        coder.encodeQuantity(cylinder, forKey: "cylinder")
        coder.encodeQuantity(axis, forKey: "axis")
        coder.encodeQuantity(addPower, forKey: "addPower")
    }

    /// The shared fields; nil when the sphere is missing or any field is malformed.
    static func decodeCommon(from coder: NSCoder)
        -> (sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?)? {
        guard let sphere = coder.decodeRequiredQuantity(forKey: "sphere", compatibleWith: .diopter()),
              let cylinder = coder.decodeOptionalQuantity(forKey: "cylinder", compatibleWith: .diopter()),
              let axis = coder.decodeOptionalQuantity(forKey: "axis", compatibleWith: .degreeAngle()),
              let addPower = coder.decodeOptionalQuantity(forKey: "addPower", compatibleWith: .diopter()) else { return nil }
        return (sphere, cylinder, axis, addPower)
    }
}
