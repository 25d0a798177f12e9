import HealthModel

/// A vision prescription in `healthctl samples --json` (its date issued is "start"): HealthKit's
/// property names, numbers in the units `VisionPrescriptionRules` names (D, deg, pD, mm).
struct VisionPrescriptionJSON: Encodable {
    struct Prism: Encodable {
        let amount: Double
        let angle: Double
        let eye: String
    }

    struct Lens: Encodable {
        let sphere: Double
        let cylinder, axis, addPower, vertexDistance, farPupillaryDistance, nearPupillaryDistance: Double?
        let prism: Prism?
        let baseCurve, diameter: Double?

        init(_ lens: LensSpecificationValue) {
            sphere = lens.sphere
            cylinder = lens.cylinder
            axis = lens.axis
            addPower = lens.addPower
            vertexDistance = lens.vertexDistance
            farPupillaryDistance = lens.farPupillaryDistance
            nearPupillaryDistance = lens.nearPupillaryDistance
            prism = lens.prism.map { Prism(amount: $0.amount, angle: $0.angle, eye: $0.eye == 1 ? "left" : "right") }
            baseCurve = lens.baseCurve
            diameter = lens.diameter
        }
    }

    /// "glasses" or "contacts".
    let prescriptionType: String
    let expirationDate: String?
    let rightEye: Lens?
    let leftEye: Lens?
    let brand: String?

    init(_ value: VisionPrescriptionValue) {
        prescriptionType = VisionPrescriptionText.kind(value)
        expirationDate = value.expirationDate.map(SampleJSONLine.timestamp)
        rightEye = value.rightEye.map(Lens.init)
        leftEye = value.leftEye.map(Lens.init)
        brand = value.brand
    }
}
