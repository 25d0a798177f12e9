import HealthModel

extension ExportXMLWriter {
    /// One `SensitivityPoint` as healthkit11.dtd declares it: the frequency in Hz and each ear's
    /// sensitivity in dBHL (HealthKit's iOS 13 `leftEarSensitivity`/`rightEarSensitivity`: the
    /// unmasked test's, else the masked one's). The DTD has no attributes for masking or clamping
    /// (iOS 18.1), so those are not in export.xml; healthctl's JSON and CSV exports carry them.
    static func sensitivityPoint(_ point: AudiogramValue.Point) -> String {
        var attributes: [(String, String?)] = [("frequencyValue", ExportXMLText.number(point.frequency)), ("frequencyUnit", "Hz")]
        for (side, name) in [(0, "leftEar"), (1, "rightEar")] {
            guard let sensitivity = point.sensitivity(side: side) else { continue }
            attributes += [(name + "Value", ExportXMLText.number(sensitivity)), (name + "Unit", "dBHL")]
        }
        return "  <SensitivityPoint" + ExportXMLText.attributes(attributes) + "/>\n"
    }
}
