import HealthModel

extension ExportXMLWriter {
    /// Apple's `<VisionPrescription>` (HealthKit Export Version 14's DTD, as the Health app's
    /// framework declares it): `type`, `dateIssued`, `expirationDate`, `brand`, then a `RightEye`
    /// and `LeftEye` with each field's value and unit (D, deg, pD, mm) and the metadata entries.
    /// The prescription's source follows as `sourceName`/`sourceVersion`/`device`, which Apple's
    /// element lacks and our DTD declares (`ExportDTD`), so a round trip keeps who saved it.
    /// Values of `type` are HealthKit's Objective-C enum names, as the export writes every other
    /// enum value; they were not checked against a real export (`ExportConversion` reads the
    /// short names and raw numbers too). A prism is written on the eye whose lens holds it.
    func visionPrescription(_ sample: SampleRecord, _ prescription: VisionPrescriptionValue, source: [(String, String?)]) -> String {
        let kind = prescription.kind == VisionPrescriptionValue.contacts ? "HKVisionPrescriptionTypeContacts" : "HKVisionPrescriptionTypeGlasses"
        var text = " <VisionPrescription" + ExportXMLText.attributes([
            ("type", kind), ("dateIssued", ExportDate.format(sample.startDate, in: timeZone)),
            ("expirationDate", prescription.expirationDate.map { ExportDate.format($0, in: timeZone) }), ("brand", prescription.brand),
        ] + source) + ">\n"
        for (element, lens) in [("RightEye", prescription.rightEye), ("LeftEye", prescription.leftEye)] {
            guard let lens else { continue }
            text += "  <\(element)" + ExportXMLText.attributes(Self.lensAttributes(lens)) + "/>\n"
        }
        return text + metadataEntries(sample.metadata, indent: "  ") + " </VisionPrescription>\n"
    }

    /// A lens's fields as the DTD names them, each with its unit (`ExportConversion.lensUnit`).
    private static func lensAttributes(_ lens: LensSpecificationValue) -> [(String, String?)] {
        let fields: [(String, Double?)] = [
            ("sphere", lens.sphere), ("cylinder", lens.cylinder), ("axis", lens.axis), ("add", lens.addPower),
            ("vertex", lens.vertexDistance), ("prismAmount", lens.prism?.amount), ("prismAngle", lens.prism?.angle),
            ("farPD", lens.farPupillaryDistance), ("nearPD", lens.nearPupillaryDistance), ("baseCurve", lens.baseCurve),
            ("diameter", lens.diameter),
        ]
        return fields.flatMap { name, value -> [(String, String?)] in
            guard let value else { return [] }
            return [(name, ExportXMLText.number(value)), (name + "Unit", ExportConversion.lensUnit(name)?.unitString)]
        }
    }
}
