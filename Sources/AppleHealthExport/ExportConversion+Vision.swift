public import HealthModel

extension ExportConversion {
    /// The `type` attribute's values: HealthKit's Objective-C names of `HKVisionPrescriptionType`
    /// (what `ExportXMLWriter` writes, as Apple's export names every other enum value), their
    /// short forms and the raw numbers.
    static let prescriptionKinds: [String: Int] = [
        "HKVisionPrescriptionTypeGlasses": VisionPrescriptionValue.glasses, "glasses": VisionPrescriptionValue.glasses,
        "\(VisionPrescriptionValue.glasses)": VisionPrescriptionValue.glasses,
        "HKVisionPrescriptionTypeContacts": VisionPrescriptionValue.contacts, "contacts": VisionPrescriptionValue.contacts,
        "\(VisionPrescriptionValue.contacts)": VisionPrescriptionValue.contacts,
    ]

    /// A `VisionPrescription` as an `HKVisionPrescription`: an `HKGlassesPrescription` or
    /// `HKContactsPrescription` when it lists a lens (or a brand), a plain prescription otherwise;
    /// each field converted from the unit the file names into the unit `VisionPrescriptionRules`
    /// checks (D, deg, pD, mm). A lens's prism is that eye's. The rules are the broker's to apply.
    public static func sample(_ prescription: ExportVisionPrescription) throws(ImportRefusal) -> ImportedSample {
        let header = prescription.header
        guard let kind = prescriptionKinds[prescription.kind] else {
            throw ImportRefusal(type: header.type, reason: "unknown prescription type \(prescription.kind)")
        }
        let value = VisionPrescriptionValue(
            kind: kind, hasLenses: prescription.rightEye != nil || prescription.leftEye != nil || prescription.brand != nil,
            expirationDate: prescription.expirationDate,
            rightEye: try prescription.rightEye.map { (lens) throws(ImportRefusal) in try specification(lens, eye: 2, type: header.type) },
            leftEye: try prescription.leftEye.map { (lens) throws(ImportRefusal) in try specification(lens, eye: 1, type: header.type) },
            brand: prescription.brand)
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .visionPrescription(value), metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        var extra = [prescription.kind, prescription.expirationDate.map { "\($0.microsecondsSince1970)" } ?? "", prescription.brand ?? ""]
        for lens in [prescription.rightEye, prescription.leftEye] {
            extra.append(ExportLens.fieldNames.map { name in
                lens?.fields[name].map { "\($0.value)\($0.unit ?? "")" } ?? ""
            }.joined(separator: "/"))
        }
        addSyncIdentity(&sample, header, extra: extra)
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
    }

    /// The unit each lens field is stored in (`LensSpecificationValue`), by the DTD's field name.
    static func lensUnit(_ field: String) -> HKUnit? {
        switch field {
        case "sphere", "cylinder", "add": .diopter()
        case "axis", "prismAngle": .degreeAngle()
        case "prismAmount": .prismDiopter()
        case "vertex", "farPD", "nearPD", "baseCurve", "diameter": .meterUnit(with: .milli)
        default: nil
        }
    }

    private static func specification(_ lens: ExportLens, eye: Int, type: String) throws(ImportRefusal) -> LensSpecificationValue {
        func field(_ name: String) throws(ImportRefusal) -> Double? {
            guard let measure = lens.fields[name], let unit = lensUnit(name) else { return nil }
            guard let number = Double(measure.value), number.isFinite else {
                throw ImportRefusal(type: type, reason: "a lens \(name) that is not a number")
            }
            // A field without a unit is in the unit the store keeps it in (what HealthKit's own
            // accessors default to for these fields).
            guard let unitText = measure.unit else { return number }
            guard let converted = try? HKQuantity(unit: HKUnit.parse(unitText), doubleValue: number).value(in: unit) else {
                throw ImportRefusal(type: type, reason: "a lens \(name) unit that is not \(unit.unitString) or convertible to it")
            }
            return converted
        }
        guard let sphere = try field("sphere") else {
            throw ImportRefusal(type: type, reason: "a lens without a sphere")
        }
        let prismAmount = try field("prismAmount")
        let prismAngle = try field("prismAngle")
        var prism: VisionPrismValue?
        switch (prismAmount, prismAngle) {
        case let (amount?, angle?): prism = VisionPrismValue(amount: amount, angle: angle, eye: eye)
        case (nil, nil): prism = nil
        default: throw ImportRefusal(type: type, reason: "a lens prism needs both prismAmount and prismAngle")
        }
        return LensSpecificationValue(sphere: sphere, cylinder: try field("cylinder"), axis: try field("axis"), addPower: try field("add"),
                                      vertexDistance: try field("vertex"), prism: prism, farPupillaryDistance: try field("farPD"),
                                      nearPupillaryDistance: try field("nearPD"), baseCurve: try field("baseCurve"),
                                      diameter: try field("diameter"))
    }
}
