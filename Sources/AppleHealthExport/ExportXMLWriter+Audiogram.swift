import HealthModel

extension ExportXMLWriter {
    /// One `SensitivityPoint` as healthkit11.dtd declares it: the frequency in Hz and each ear's
    /// sensitivity in dBHL (HealthKit's iOS 13 `leftEarSensitivity`/`rightEarSensitivity`: the
    /// unmasked test's, else the masked one's), which Apple's readers understand. The DTD has no
    /// attributes for masking or clamping (iOS 18.1), so every test of the point follows as an
    /// OpenHealthKit `SensitivityTest` child (`ExportSensitivityTest`), which the import reads
    /// back in place of the two ear attributes.
    static func sensitivityPoint(_ point: AudiogramValue.Point) -> String {
        var attributes: [(String, String?)] = [("frequencyValue", ExportXMLText.number(point.frequency)), ("frequencyUnit", "Hz")]
        for (side, name) in [(0, "leftEar"), (1, "rightEar")] {
            guard let sensitivity = point.sensitivity(side: side) else { continue }
            attributes += [(name + "Value", ExportXMLText.number(sensitivity)), (name + "Unit", "dBHL")]
        }
        let head = "  <SensitivityPoint" + ExportXMLText.attributes(attributes)
        guard !point.tests.isEmpty else { return head + "/>\n" }
        return head + ">\n" + point.tests.map(sensitivityTest).joined() + "  </SensitivityPoint>\n"
    }

    private static func sensitivityTest(_ test: AudiogramValue.Test) -> String {
        "   <SensitivityTest" + ExportXMLText.attributes([
            ("side", ExportConversion.audiogramSideName(test.side)),
            ("sensitivityValue", ExportXMLText.number(test.sensitivity)), ("sensitivityUnit", "dBHL"),
            ("conductionType", "\(test.conductionType)"), ("masked", test.masked ? "1" : "0"),
            ("clampingLowerBound", test.clampingLowerBound.map(ExportXMLText.number)),
            ("clampingUpperBound", test.clampingUpperBound.map(ExportXMLText.number)),
        ]) + "/>\n"
    }
}
