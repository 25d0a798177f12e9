public import Foundation

/// One eye's contact lens, as HealthKit's `HKContactsLensSpecification` (iOS 16).
/// `NSSecureCoding` as Apple's (see `HKLensSpecification`).
public final class HKContactsLensSpecification: HKLensSpecification, NSSecureCoding, @unchecked Sendable {
    /// The curvature of the lens' back surface, in millimetres.
    public let baseCurve: HKQuantity?
    /// The lens' width, in millimetres.
    public let diameter: HKQuantity?

    public init(sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?,
                baseCurve: HKQuantity?, diameter: HKQuantity?) {
        self.baseCurve = baseCurve
        self.diameter = diameter
        super.init(sphere: sphere, cylinder: cylinder, axis: axis, addPower: addPower)
    }

    init(fetched value: LensSpecificationValue) {
        let millimeter = HKUnit.meterUnit(with: .milli)
        baseCurve = Self.quantity(value.baseCurve, millimeter)
        diameter = Self.quantity(value.diameter, millimeter)
        super.init(fetchedCommon: value)
    }

    override var value: LensSpecificationValue {
        let millimeter = HKUnit.meterUnit(with: .milli)
        var value = super.value
        value.baseCurve = baseCurve?.doubleValue(for: millimeter)
        value.diameter = diameter?.doubleValue(for: millimeter)
        return value
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        encodeCommon(with: coder)
        coder.encodeQuantity(baseCurve, forKey: "baseCurve")
        coder.encodeQuantity(diameter, forKey: "diameter")
    }

    public required convenience init?(coder: NSCoder) {
        let millimeter = HKUnit.meterUnit(with: .milli)
        guard let common = Self.decodeCommon(from: coder),
              let baseCurve = coder.decodeOptionalQuantity(forKey: "baseCurve", compatibleWith: millimeter),
              let diameter = coder.decodeOptionalQuantity(forKey: "diameter", compatibleWith: millimeter) else { return nil }
        self.init(sphere: common.sphere, cylinder: common.cylinder, axis: common.axis, addPower: common.addPower,
                  baseCurve: baseCurve, diameter: diameter)
    }
}
