import HealthModel

/// How healthctl shows a vision prescription: the kind, then each eye the way an optician writes
/// it ("R SPH -2.25 CYL -0.5 AX 90 ADD 1.5 …"), in the stored units (D, deg, pD, mm), then the
/// brand. The expiration is a date and is left to the caller, which knows the time zone.
enum VisionPrescriptionText {
    static func kind(_ value: VisionPrescriptionValue) -> String {
        switch value.kind {
        case VisionPrescriptionValue.glasses: "glasses"
        case VisionPrescriptionValue.contacts: "contacts"
        default: "type \(value.kind)"
        }
    }

    /// "R SPH -2.25 D CYL -0.5 D AX 90 deg; L SPH -2 D; brand Acuvue" or "no lens details".
    static func detail(_ value: VisionPrescriptionValue) -> String {
        var parts: [String] = []
        if let right = value.rightEye { parts.append("R " + lens(right)) }
        if let left = value.leftEye { parts.append("L " + lens(left)) }
        if let brand = value.brand { parts.append("brand " + brand) }
        return parts.isEmpty ? "no lens details" : parts.joined(separator: "; ")
    }

    static func lens(_ lens: LensSpecificationValue) -> String {
        var fields = ["SPH \(number(lens.sphere)) D"]
        func add(_ name: String, _ value: Double?, _ unit: String) {
            if let value { fields.append("\(name) \(number(value)) \(unit)") }
        }
        add("CYL", lens.cylinder, "D")
        add("AX", lens.axis, "deg")
        add("ADD", lens.addPower, "D")
        add("VD", lens.vertexDistance, "mm")
        if let prism = lens.prism {
            fields.append("PRISM \(number(prism.amount)) pD at \(number(prism.angle)) deg")
        }
        add("PD far", lens.farPupillaryDistance, "mm")
        add("PD near", lens.nearPupillaryDistance, "mm")
        add("BC", lens.baseCurve, "mm")
        add("DIA", lens.diameter, "mm")
        return fields.joined(separator: " ")
    }

    private static func number(_ value: Double) -> String { NumberText.measurement(value) }
}
