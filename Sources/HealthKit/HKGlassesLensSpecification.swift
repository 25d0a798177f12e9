public import Foundation

/// One eye's glasses lens, as HealthKit's `HKGlassesLensSpecification` (iOS 16).
public final class HKGlassesLensSpecification: HKLensSpecification, @unchecked Sendable {
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
}
