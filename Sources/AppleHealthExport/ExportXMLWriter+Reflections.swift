public import HealthModel

/// OpenHealthKit's own elements for the kinds Apple's export DTDs (v3 … v14) have none for —
/// State of Mind, GAD-7/PHQ-9 and stored CDA documents — written in the style of `Record`: the
/// type, source and date attributes every sample element has, the value as attributes, then
/// `MetadataEntry` children (ExportDTD declares them). Apple's readers skip unknown elements;
/// `ExportXMLReader` reads them back.
extension ExportXMLWriter {
    /// `<StateOfMind … kind="2" valence="0.25" labels="14 31" associations="17">` (ExportStateOfMind).
    func stateOfMind(_ sample: SampleRecord, _ value: StateOfMindValue, source: [(String, String?)], dates: [(String, String?)]) -> String {
        let list = { (values: [Int]) in values.isEmpty ? nil : values.map(String.init).joined(separator: " ") }
        let attributes: [(String, String?)] = [("type", sample.typeIdentifier)] + source + dates + [
            ("kind", "\(value.kind)"), ("valence", ExportXMLText.number(value.valence)),
            ("labels", list(value.labels)), ("associations", list(value.associations)),
        ]
        return " <StateOfMind" + ExportXMLText.attributes(attributes) + ">\n" + metadataEntries(sample.metadata, indent: "  ")
            + " </StateOfMind>\n"
    }

    /// `<ScoredAssessment type="HKScoredAssessmentTypeIdentifierGAD7" … answers="0 1 2 3 0 1 2">` (ExportScoredAssessment).
    func scoredAssessment(_ sample: SampleRecord, _ value: ScoredAssessmentValue, source: [(String, String?)],
                          dates: [(String, String?)]) -> String {
        let attributes: [(String, String?)] = [("type", sample.typeIdentifier)] + source + dates + [
            ("answers", value.answers.map(String.init).joined(separator: " ")),
        ]
        return " <ScoredAssessment" + ExportXMLText.attributes(attributes) + ">\n" + metadataEntries(sample.metadata, indent: "  ")
            + " </ScoredAssessment>\n"
    }

    /// The `<CDADocument>` for a stored CDA document whose bytes the archive wrote to `path`
    /// (`/cda-documents/<UUID>.xml`), named by a `FileReference` as a route's GPX file is (ExportDocument).
    public func document(_ sample: SampleRecord, sourceName: String, sourceVersion: String?, path: String) -> String {
        let source = Origin(name: sourceName, version: sourceVersion).attributes(device: sample.device)
        let attributes: [(String, String?)] = [("type", sample.typeIdentifier)] + source + [
            ("startDate", date(sample.startDate)), ("endDate", date(sample.endDate)),
        ]
        return " <CDADocument" + ExportXMLText.attributes(attributes) + ">\n" + metadataEntries(sample.metadata, indent: "  ")
            + "  <FileReference" + ExportXMLText.attributes([("path", path)]) + "/>\n" + " </CDADocument>\n"
    }
}
