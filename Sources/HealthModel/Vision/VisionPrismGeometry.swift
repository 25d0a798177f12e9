public import Foundation

/// An `HKVisionPrism`'s two spellings and the one conversion between them: amount (pD) and
/// angle (degrees), or a vertical and a horizontal component each with its base direction.
/// Angles follow the optician's 360° (TABO) notation seen facing the patient: 90° is base up,
/// 270° base down, and 0° points to the patient's left, which is base in for the right eye and
/// base out for the left eye. healthd stores amount and angle; the components are derived.
public enum VisionPrismGeometry {
    /// `HKPrismBase` raw values.
    public static let baseNone = 0, baseUp = 1, baseDown = 2, baseIn = 3, baseOut = 4
    /// `HKVisionEye` raw values.
    public static let leftEye = 1, rightEye = 2

    /// One component: its amount (pD, ≥ 0) and `HKPrismBase` raw value.
    public struct Component: Hashable, Sendable {
        public let amount: Double
        public let base: Int

        public init(amount: Double, base: Int) {
            self.amount = amount
            self.base = base
        }
    }

    /// The vertical (up/down) component of a prism.
    public static func vertical(_ prism: VisionPrismValue) -> Component {
        let signed = prism.amount * sin(prism.angle * .pi / 180)
        return Component(amount: abs(signed), base: signed > 0 ? baseUp : signed < 0 ? baseDown : baseNone)
    }

    /// The horizontal (in/out) component of a prism.
    public static func horizontal(_ prism: VisionPrismValue) -> Component {
        let signed = prism.amount * cos(prism.angle * .pi / 180)
        let towardPatientsLeft = prism.eye == rightEye ? baseIn : baseOut
        let towardPatientsRight = prism.eye == rightEye ? baseOut : baseIn
        return Component(amount: abs(signed), base: signed > 0 ? towardPatientsLeft : signed < 0 ? towardPatientsRight : baseNone)
    }

    /// Amount and angle from the two components (`HKVisionPrism(verticalAmount:…)`). A base that
    /// does not belong to its axis (up/down horizontally, in/out vertically — HealthKit documents
    /// each for one axis only) gives NaN, which `VisionPrescriptionRules` refuses on save.
    public static func prism(vertical: Component, horizontal: Component, eye: Int) -> VisionPrismValue {
        let up: Double? = switch vertical.base {
        case baseUp: vertical.amount
        case baseDown: -vertical.amount
        case baseNone: 0
        default: nil
        }
        let towardLeft: Double? = switch horizontal.base {
        case baseNone: 0
        case baseIn: eye == rightEye ? horizontal.amount : -horizontal.amount
        case baseOut: eye == rightEye ? -horizontal.amount : horizontal.amount
        default: nil
        }
        guard let up, let towardLeft else { return VisionPrismValue(amount: .nan, angle: .nan, eye: eye) }
        var angle = atan2(up, towardLeft) * 180 / .pi
        if angle < 0 { angle += 360 }
        return VisionPrismValue(amount: (up * up + towardLeft * towardLeft).squareRoot(), angle: angle, eye: eye)
    }
}
