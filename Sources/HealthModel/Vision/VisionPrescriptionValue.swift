public import Foundation

/// A vision prescription's value (`HKVisionPrescription`, `HKGlassesPrescription`,
/// `HKContactsPrescription`, iOS 16), in the units `VisionPrescriptionRules` names: diopters (D)
/// for sphere, cylinder and add power, prism diopters (pD) and degrees for a prism, degrees for
/// the axis, millimetres for distances, base curve and diameter. The date issued is the
/// sample's start (and end) date; everything else is here.
public struct VisionPrescriptionValue: Hashable, Sendable {
    /// `HKVisionPrescriptionType` raw value: glasses 1, contacts 2.
    public var kind: Int
    /// Whether the prescription carries lens specifications (`HKGlassesPrescription` /
    /// `HKContactsPrescription`) or is a plain `HKVisionPrescription` (an image-only record).
    public var hasLenses: Bool
    public var expirationDate: Date?
    public var rightEye: LensSpecificationValue?
    public var leftEye: LensSpecificationValue?
    /// The contact lens brand: set for a contacts prescription with lenses, nil otherwise.
    public var brand: String?

    public init(kind: Int, hasLenses: Bool, expirationDate: Date?, rightEye: LensSpecificationValue? = nil,
                leftEye: LensSpecificationValue? = nil, brand: String? = nil) {
        self.kind = kind
        self.hasLenses = hasLenses
        self.expirationDate = expirationDate
        self.rightEye = rightEye
        self.leftEye = leftEye
        self.brand = brand
    }

    /// `HKVisionPrescriptionType.glasses` / `.contacts`.
    public static let glasses = 1
    public static let contacts = 2
}

/// One eye's lens (`HKGlassesLensSpecification` / `HKContactsLensSpecification`). The fields
/// after `addPower` belong to one lens kind only; `VisionPrescriptionRules` refuses a field of
/// the other kind.
public struct LensSpecificationValue: Hashable, Sendable {
    /// Diopters (D).
    public var sphere: Double
    public var cylinder: Double?
    /// Degrees.
    public var axis: Double?
    public var addPower: Double?
    /// Glasses: millimetres from the lens to the cornea.
    public var vertexDistance: Double?
    public var prism: VisionPrismValue?
    /// Glasses: millimetres.
    public var farPupillaryDistance: Double?
    public var nearPupillaryDistance: Double?
    /// Contacts: millimetres.
    public var baseCurve: Double?
    public var diameter: Double?

    public init(sphere: Double, cylinder: Double? = nil, axis: Double? = nil, addPower: Double? = nil,
                vertexDistance: Double? = nil, prism: VisionPrismValue? = nil, farPupillaryDistance: Double? = nil,
                nearPupillaryDistance: Double? = nil, baseCurve: Double? = nil, diameter: Double? = nil) {
        self.sphere = sphere
        self.cylinder = cylinder
        self.axis = axis
        self.addPower = addPower
        self.vertexDistance = vertexDistance
        self.prism = prism
        self.farPupillaryDistance = farPupillaryDistance
        self.nearPupillaryDistance = nearPupillaryDistance
        self.baseCurve = baseCurve
        self.diameter = diameter
    }
}

/// An `HKVisionPrism` as amount and angle, the form its components are derived from
/// (`VisionPrismGeometry`).
public struct VisionPrismValue: Hashable, Sendable {
    /// Prism diopters (pD).
    public var amount: Double
    /// Degrees, 0 ≤ angle < 360.
    public var angle: Double
    /// `HKVisionEye` raw value: left 1, right 2.
    public var eye: Int

    public init(amount: Double, angle: Double, eye: Int) {
        self.amount = amount
        self.angle = angle
        self.eye = eye
    }
}
