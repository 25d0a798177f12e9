public import Foundation

/// What every lens prescription gives, as HealthKit's `HKLensSpecification` (iOS 16): the base
/// of `HKGlassesLensSpecification` and `HKContactsLensSpecification`. Quantities keep the unit
/// they were made with; `save` converts them (sphere, cylinder and add power to diopters, axis
/// to degrees) and refuses a quantity of the wrong kind naming the field.
public class HKLensSpecification: Hashable, @unchecked Sendable {
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
    }

    /// The fields every lens has, from a fetched value (the subclasses read their own).
    init(fetchedCommon value: LensSpecificationValue) {
        sphere = HKQuantity(unit: .diopter(), doubleValue: value.sphere)
        cylinder = Self.quantity(value.cylinder, .diopter())
        axis = Self.quantity(value.axis, .degreeAngle())
        addPower = Self.quantity(value.addPower, .diopter())
    }

    /// The value `save` sends: the shared fields converted; subclasses add their own.
    var value: LensSpecificationValue {
        LensSpecificationValue(sphere: sphere.doubleValue(for: .diopter()), cylinder: cylinder?.doubleValue(for: .diopter()),
                               axis: axis?.doubleValue(for: .degreeAngle()), addPower: addPower?.doubleValue(for: .diopter()))
    }

    static func quantity(_ value: Double?, _ unit: HKUnit) -> HKQuantity? {
        value.map { HKQuantity(unit: unit, doubleValue: $0) }
    }

    public static func == (lhs: HKLensSpecification, rhs: HKLensSpecification) -> Bool {
        type(of: lhs) == type(of: rhs) && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
