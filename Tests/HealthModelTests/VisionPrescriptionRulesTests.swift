import Foundation
import Testing

@testable import HealthModel

/// Vision prescription rules (`VisionPrescriptionRules`), one dimension at a time, each bound at
/// its edge and just past it. Apple's shape: HKVisionPrescription (type, dateIssued,
/// expirationDate; developer.apple.com/documentation/healthkit/hkvisionprescription),
/// HKGlassesLensSpecification / HKContactsLensSpecification (which fields belong to which lens),
/// HKVisionPrism (amount in prismDiopter, angle in degreeAngle; eye left 1 / right 2:
/// developer.apple.com/documentation/healthkit/hkvisionprism/init(amount:angle:eye:)),
/// HKPrismBase (up/down for the vertical base only, in/out for the horizontal one:
/// developer.apple.com/documentation/healthkit/hkprismbase/up, …/in).
@Suite(.timeLimit(.minutes(10))) struct VisionPrescriptionRulesTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static func record(_ value: VisionPrescriptionValue, start: Date = date, end: Date = date) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: start, endDate: end,
                     value: .visionPrescription(value))
    }

    static func glasses(_ lens: LensSpecificationValue) -> VisionPrescriptionValue {
        VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: true, expirationDate: nil, rightEye: lens)
    }

    static func contacts(_ lens: LensSpecificationValue, brand: String? = "Brand") -> VisionPrescriptionValue {
        VisionPrescriptionValue(kind: VisionPrescriptionValue.contacts, hasLenses: true, expirationDate: nil, leftEye: lens, brand: brand)
    }

    static func refusal(_ record: SampleRecord) -> String? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            #expect(error.code == .errorInvalidArgument)
            return error.message
        }
    }

    @Test func aFullGlassesAndAFullContactsPrescriptionPass() throws {
        let prism = VisionPrismValue(amount: 0.25, angle: 15, eye: 2)
        let glasses = LensSpecificationValue(sphere: -2.25, cylinder: -0.5, axis: 90, addPower: 1.5, vertexDistance: 12,
                                             prism: prism, farPupillaryDistance: 32, nearPupillaryDistance: 30)
        #expect(Self.refusal(Self.record(Self.glasses(glasses))) == nil)
        let contacts = LensSpecificationValue(sphere: -2, cylinder: -0.75, axis: 180, addPower: 0, baseCurve: 8.6, diameter: 14.2)
        #expect(Self.refusal(Self.record(Self.contacts(contacts))) == nil)
        let plain = VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: false,
                                            expirationDate: Self.date.addingTimeInterval(86_400 * 365))
        #expect(Self.refusal(Self.record(plain)) == nil)
    }

    /// Each bounded field at both edges passes and just past either edge is refused, naming the field.
    @Test(arguments: [
        ("sphere", VisionPrescriptionRules.sphere), ("cylinder", VisionPrescriptionRules.cylinder),
        ("axis", VisionPrescriptionRules.axis), ("addPower", VisionPrescriptionRules.addPower),
        ("vertexDistance", VisionPrescriptionRules.vertexDistance), ("farPupillaryDistance", VisionPrescriptionRules.pupillaryDistance),
        ("prism amount", VisionPrescriptionRules.prismAmount), ("prism angle", VisionPrescriptionRules.prismAngle),
    ] as [(String, VisionPrescriptionRules.Bound)])
    func glassesBoundsAtTheirEdges(field: String, bound: VisionPrescriptionRules.Bound) {
        for (value, passes) in [(bound.range.lowerBound, true), (bound.range.upperBound, true),
                                (bound.range.lowerBound.nextDown - 0.001, false), (bound.range.upperBound + 0.001, false),
                                (Double.nan, false), (Double.infinity, false)] {
            let message = Self.refusal(Self.record(Self.glasses(Self.glassesLens(field, value))))
            if passes {
                #expect(message == nil, "\(field) = \(value)")
            } else {
                #expect(message?.contains(field) == true, "\(field) = \(value): \(message ?? "accepted")")
                #expect(message?.contains(bound.unit) == true)
            }
        }
    }

    static func glassesLens(_ field: String, _ value: Double) -> LensSpecificationValue {
        var lens = LensSpecificationValue(sphere: -1)
        switch field {
        case "sphere": lens.sphere = value
        case "cylinder": lens.cylinder = value
        case "axis": lens.axis = value
        case "addPower": lens.addPower = value
        case "vertexDistance": lens.vertexDistance = value
        case "farPupillaryDistance": lens.farPupillaryDistance = value
        case "prism amount": lens.prism = VisionPrismValue(amount: value, angle: 0, eye: 2)
        case "prism angle": lens.prism = VisionPrismValue(amount: 1, angle: value, eye: 2)
        default: Issue.record("no field \(field)")
        }
        return lens
    }

    @Test func contactsBoundsAtTheirEdges() {
        for (baseCurve, diameter, passes) in [(0.0, 0.0, true), (20.0, 30.0, true), (20.001, 14.0, false), (8.6, 30.001, false),
                                              (-0.001, 14.0, false), (Double.nan, 14.0, false)] {
            let lens = LensSpecificationValue(sphere: -1, baseCurve: baseCurve, diameter: diameter)
            #expect((Self.refusal(Self.record(Self.contacts(lens))) == nil) == passes, "\(baseCurve) \(diameter)")
        }
    }

    @Test func aFieldOfTheOtherLensKindIsRefused() {
        let glassesWithBaseCurve = LensSpecificationValue(sphere: -1, baseCurve: 8.6)
        #expect(Self.refusal(Self.record(Self.glasses(glassesWithBaseCurve)))?.contains("baseCurve") == true)
        let contactsWithPrism = LensSpecificationValue(sphere: -1, prism: VisionPrismValue(amount: 1, angle: 0, eye: 1))
        #expect(Self.refusal(Self.record(Self.contacts(contactsWithPrism)))?.contains("prism") == true)
        let contactsWithVertex = LensSpecificationValue(sphere: -1, vertexDistance: 12)
        #expect(Self.refusal(Self.record(Self.contacts(contactsWithVertex)))?.contains("vertexDistance") == true)
    }

    @Test func theTypeEyeDatesAndBrandAreChecked() {
        let plain = VisionPrescriptionValue(kind: 3, hasLenses: false, expirationDate: nil)
        #expect(Self.refusal(Self.record(plain))?.contains("glasses (1) or contacts (2)") == true)
        let zero = VisionPrescriptionValue(kind: 0, hasLenses: false, expirationDate: nil)
        #expect(Self.refusal(Self.record(zero)) != nil)
        let badEye = LensSpecificationValue(sphere: -1, prism: VisionPrismValue(amount: 1, angle: 0, eye: 3))
        #expect(Self.refusal(Self.record(Self.glasses(badEye)))?.contains("prism eye") == true)
        let expired = VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: Self.date.addingTimeInterval(-1))
        #expect(Self.refusal(Self.record(expired))?.contains("expirationDate") == true)
        let sameDay = VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: Self.date)
        #expect(Self.refusal(Self.record(sameDay)) == nil)
        let plainRecord = Self.record(VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: nil),
                                      end: Self.date.addingTimeInterval(1))
        #expect(Self.refusal(plainRecord)?.contains("one date") == true)
        let longest = String(repeating: "é", count: VisionPrescriptionRules.maxBrandLength)
        #expect(Self.refusal(Self.record(Self.contacts(LensSpecificationValue(sphere: -1), brand: longest))) == nil)
        #expect(Self.refusal(Self.record(Self.contacts(LensSpecificationValue(sphere: -1), brand: longest + "e")))?.contains("brand") == true)
        #expect(Self.refusal(Self.record(Self.contacts(LensSpecificationValue(sphere: -1), brand: nil)))?.contains("brand") == true)
        var glassesWithBrand = Self.glasses(LensSpecificationValue(sphere: -1))
        glassesWithBrand.brand = "Brand"
        #expect(Self.refusal(Self.record(glassesWithBrand))?.contains("brand") == true)
        let plainWithLens = VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: nil, rightEye: LensSpecificationValue(sphere: -1))
        #expect(Self.refusal(Self.record(plainWithLens)) != nil)
    }

    /// The value never appears in a refusal: it is health data.
    @Test func refusalsNameTheFieldNotTheValue() {
        let message = Self.refusal(Self.record(Self.glasses(LensSpecificationValue(sphere: -41.125))))
        #expect(message?.contains("41.125") == false)
    }

    /// Amount and angle ⇄ components. Right eye: 0° is base in, 180° base out; left eye the
    /// reverse; 90° up, 270° down (optician's 360° notation).
    @Test(arguments: [
        (2, 0.0, 0, 3), (2, 180.0, 0, 4), (1, 0.0, 0, 4), (1, 180.0, 0, 3), (2, 90.0, 1, 0), (1, 270.0, 2, 0),
    ] as [(Int, Double, Int, Int)])
    func prismComponentsFollowTheEye(eye: Int, angle: Double, verticalBase: Int, horizontalBase: Int) {
        let prism = VisionPrismValue(amount: 2, angle: angle, eye: eye)
        let vertical = VisionPrismGeometry.vertical(prism), horizontal = VisionPrismGeometry.horizontal(prism)
        // sin(180°) is 1e-16, not 0: a component that small is the other axis' rounding.
        #expect(vertical.amount < 1e-9 ? verticalBase == 0 : vertical.base == verticalBase)
        #expect(horizontal.amount < 1e-9 ? horizontalBase == 0 : horizontal.base == horizontalBase)
        let back = VisionPrismGeometry.prism(vertical: vertical, horizontal: horizontal, eye: eye)
        #expect(abs(back.amount - 2) < 1e-9)
        #expect(abs(back.angle - angle) < 1e-9 || abs(abs(back.angle - angle) - 360) < 1e-9)
    }

    @Test func aBaseOnTheWrongAxisGivesAPrismTheRulesRefuse() {
        let prism = VisionPrismGeometry.prism(vertical: .init(amount: 1, base: VisionPrismGeometry.baseIn),
                                              horizontal: .init(amount: 1, base: VisionPrismGeometry.baseOut), eye: 2)
        #expect(prism.amount.isNaN)
        let lens = LensSpecificationValue(sphere: -1, prism: prism)
        #expect(Self.refusal(Self.record(Self.glasses(lens)))?.contains("prism amount") == true)
    }

    /// Reading needs per-object grants: HealthKit refuses the type in a type-wide read set
    /// (developer.apple.com/documentation/healthkit/hkobjecttype/requiresperobjectauthorization()).
    @Test func theTypeIsReadPerObjectAndRefusedInATypeWideReadSet() {
        #expect(HKObjectType.visionPrescriptionType().requiresPerObjectAuthorization())
        #expect(!HKObjectType.workoutType().requiresPerObjectAuthorization())
        let refusal = PerObjectAuthorization.readRefusal([HKQuantityTypeIdentifier.stepCount.rawValue, HKVisionPrescriptionTypeIdentifier])
        #expect(refusal?.code == .errorInvalidArgument)
        #expect(refusal?.message == "Authorization to read the following types is disallowed: HKVisionPrescriptionTypeIdentifier")
        #expect(PerObjectAuthorization.readRefusal([HKQuantityTypeIdentifier.stepCount.rawValue]) == nil)
        #expect(AppWritability.isShareable(HKVisionPrescriptionTypeIdentifier))
    }
}
