public import Foundation

/// One eye's glasses lens, as HealthKit's `HKGlassesLensSpecification` (iOS 16).
/// `NSSecureCoding` as Apple's (see `HKLensSpecification`; the prism's fields sit flat under
/// `prism.`).
public final class HKGlassesLensSpecification: HKLensSpecification, NSSecureCoding, @unchecked Sendable {
    /// The distance from the back of the lens to the cornea, in millimetres.
    public let vertexDistance: HKQuantity?
    public let prism: HKVisionPrism?
    /// The pupil-to-optical-centre distance for far and near vision, in millimetres.
    public let farPupillaryDistance: HKQuantity?
    public let nearPupillaryDistance: HKQuantity?

    public init(sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?,
                vertexDistance: HKQuantity?, prism: HKVisionPrism?, farPupillaryDistance: HKQuantity?,
                nearPupillaryDistance: HKQuantity?) {
        self.vertexDistance = vertexDistance
        self.prism = prism
        self.farPupillaryDistance = farPupillaryDistance
        self.nearPupillaryDistance = nearPupillaryDistance
        super.init(sphere: sphere, cylinder: cylinder, axis: axis, addPower: addPower)
    }

    init(fetched value: LensSpecificationValue) throws(HKError) {
        let millimeter = HKUnit.meterUnit(with: .milli)
        vertexDistance = Self.quantity(value.vertexDistance, millimeter)
        prism = try value.prism.map { (prism) throws(HKError) in try HKVisionPrism(fetched: prism) }
        farPupillaryDistance = Self.quantity(value.farPupillaryDistance, millimeter)
        nearPupillaryDistance = Self.quantity(value.nearPupillaryDistance, millimeter)
        super.init(fetchedCommon: value)
    }

    override var value: LensSpecificationValue {
        let millimeter = HKUnit.meterUnit(with: .milli)
        var value = super.value
        value.vertexDistance = vertexDistance?.doubleValue(for: millimeter)
        value.prism = prism?.value
        value.farPupillaryDistance = farPupillaryDistance?.doubleValue(for: millimeter)
        value.nearPupillaryDistance = nearPupillaryDistance?.doubleValue(for: millimeter)
        return value
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let prismPrefix = "prism."

    public func encode(with coder: NSCoder) {
        encodeCommon(with: coder)
        coder.encodeQuantity(vertexDistance, forKey: "vertexDistance")
        prism?.encodeFields(prefix: Self.prismPrefix, with: coder)
        coder.encodeQuantity(farPupillaryDistance, forKey: "farPupillaryDistance")
        coder.encodeQuantity(nearPupillaryDistance, forKey: "nearPupillaryDistance")
    }

    public required convenience init?(coder: NSCoder) {
        let millimeter = HKUnit.meterUnit(with: .milli)
        var prism: HKVisionPrism?
        // Any one of the prism's fields makes a prism, so a removed field fails rather than
        // silently dropping the prism.
        if HKVisionPrism.fieldKeys.contains(where: { coder.containsValue(forKey: Self.prismPrefix + $0) }) {
            guard let fields = HKVisionPrism.decodeFields(prefix: Self.prismPrefix, from: coder) else { return nil }
            prism = HKVisionPrism(amount: fields.amount, angle: fields.angle, eye: fields.eye)
        }
        guard let common = Self.decodeCommon(from: coder),
              let vertex = coder.decodeOptionalQuantity(forKey: "vertexDistance", compatibleWith: millimeter),
              let far = coder.decodeOptionalQuantity(forKey: "farPupillaryDistance", compatibleWith: millimeter),
              let near = coder.decodeOptionalQuantity(forKey: "nearPupillaryDistance", compatibleWith: millimeter) else { return nil }
        self.init(sphere: common.sphere, cylinder: common.cylinder, axis: common.axis, addPower: common.addPower,
                  vertexDistance: vertex, prism: prism, farPupillaryDistance: far, nearPupillaryDistance: near)
    }
}
