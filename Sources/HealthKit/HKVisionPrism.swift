public import Foundation

/// Which eye a prism corrects, as HealthKit's `HKVisionEye` (`HKVisionPrism.Eye` in the nested
/// spelling).
public enum HKVisionEye: Int, Sendable, CaseIterable {
    case left = 1
    case right = 2
}

/// Where a prism's base (its thickest part) lies, as HealthKit's `HKPrismBase`. `up`/`down`
/// are for the vertical component only, `in`/`out` for the horizontal one (HealthKit's
/// documentation of each case); a base on the wrong axis makes `save` fail.
public enum HKPrismBase: Int, Sendable, CaseIterable {
    case none = 0
    case up = 1
    case down = 2
    case `in` = 3
    case out = 4
}

/// A prescription's eye-alignment correction, as HealthKit's `HKVisionPrism` (iOS 16): an
/// amount in prism diopters and an angle in degrees, or the same as a vertical and a horizontal
/// component with their bases. Either initializer gives all six properties; the conversion is
/// `VisionPrismGeometry`'s (optician's 360° notation, 0° toward the patient's left).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the amount and angle as
/// written (unit text and value, flat) and the eye's raw value. An archive decodes into what
/// `init(amount:angle:eye:)` accepts — finite values in a unit of the right kind (prism diopters,
/// an angle) and a known eye — and otherwise into nil; healthd's range checks apply on `save`, as
/// for a prism made in code. Equal when the values saved are (`==`, `isEqual(_:)`, `hash` and
/// `Set` agree).
public final class HKVisionPrism: NSObject, NSSecureCoding, @unchecked Sendable {
    /// HealthKit's nested names for the enums.
    public typealias Eye = HKVisionEye
    public typealias BaseDirection = HKPrismBase
    public typealias PrismBase = HKPrismBase

    /// The strength, in `HKUnit.prismDiopter()`.
    public let amount: HKQuantity
    /// The orientation, in `HKUnit.degreeAngle()`.
    public let angle: HKQuantity
    public let eye: HKVisionEye
    public var verticalAmount: HKQuantity { HKQuantity(unit: .prismDiopter(), doubleValue: vertical.amount) }
    public var verticalBase: HKPrismBase { HKPrismBase(rawValue: vertical.base) ?? .none }
    public var horizontalAmount: HKQuantity { HKQuantity(unit: .prismDiopter(), doubleValue: horizontal.amount) }
    public var horizontalBase: HKPrismBase { HKPrismBase(rawValue: horizontal.base) ?? .none }

    /// The value saved: amount in pD, angle in degrees (NaN for a quantity of the wrong kind,
    /// which `save` refuses naming the field).
    let value: VisionPrismValue
    private var vertical: VisionPrismGeometry.Component { VisionPrismGeometry.vertical(value) }
    private var horizontal: VisionPrismGeometry.Component { VisionPrismGeometry.horizontal(value) }

    public init(amount: HKQuantity, angle: HKQuantity, eye: HKVisionEye) {
        self.amount = amount
        self.angle = angle
        self.eye = eye
        value = VisionPrismValue(amount: amount.doubleValue(for: .prismDiopter()), angle: angle.doubleValue(for: .degreeAngle()),
                                 eye: eye.rawValue)
        super.init()
    }

    public init(verticalAmount: HKQuantity, verticalBase: HKPrismBase, horizontalAmount: HKQuantity,
                horizontalBase: HKPrismBase, eye: HKVisionEye) {
        self.eye = eye
        let combined = VisionPrismGeometry.prism(
            vertical: .init(amount: verticalAmount.doubleValue(for: .prismDiopter()), base: verticalBase.rawValue),
            horizontal: .init(amount: horizontalAmount.doubleValue(for: .prismDiopter()), base: horizontalBase.rawValue),
            eye: eye.rawValue)
        value = combined
        amount = HKQuantity(unit: .prismDiopter(), doubleValue: combined.amount)
        angle = HKQuantity(unit: .degreeAngle(), doubleValue: combined.angle)
        super.init()
    }

    init(fetched value: VisionPrismValue) throws(HKError) {
        guard let eye = HKVisionEye(rawValue: value.eye) else {
            throw HKError(.unknownError, "healthd sent a prism eye this SDK does not know; the SDK and healthd versions may not match")
        }
        self.eye = eye
        self.value = value
        amount = HKQuantity(unit: .prismDiopter(), doubleValue: value.amount)
        angle = HKQuantity(unit: .degreeAngle(), doubleValue: value.angle)
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool { (object as? HKVisionPrism)?.value == value }
    public override var hash: Int { value.hashValue }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) { encodeFields(prefix: "", with: coder) }

    public required convenience init?(coder: NSCoder) {
        guard let fields = Self.decodeFields(prefix: "", from: coder) else { return nil }
        self.init(amount: fields.amount, angle: fields.angle, eye: fields.eye)
    }

    /// The fields under `prefix`, so a glasses lens holds its prism flat beside its own fields.
    func encodeFields(prefix: String, with coder: NSCoder) {
        coder.encodeQuantity(amount, forKey: prefix + "amount")
        coder.encodeQuantity(angle, forKey: prefix + "angle")
        coder.encode(NSNumber(value: eye.rawValue), forKey: prefix + "eye")
    }

    static let fieldKeys = ["amount.unit", "amount.value", "angle.unit", "angle.value", "eye"]

    static func decodeFields(prefix: String, from coder: NSCoder) -> (amount: HKQuantity, angle: HKQuantity, eye: HKVisionEye)? {
        guard let amount = coder.decodeRequiredQuantity(forKey: prefix + "amount", compatibleWith: .prismDiopter()),
              let angle = coder.decodeRequiredQuantity(forKey: prefix + "angle", compatibleWith: .degreeAngle()),
              let eye = coder.decodeRequiredInt(forKey: prefix + "eye").flatMap(HKVisionEye.init(rawValue:)) else { return nil }
        return (amount, angle, eye)
    }
}
