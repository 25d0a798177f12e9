public import HealthModel

/// State of Mind and GAD-7/PHQ-9: OpenHealthKit's `StateOfMind` and `ScoredAssessment` elements
/// back into samples. Only the text is parsed here (numbers, list lengths); whether the values
/// are allowed — kind, valence range, known and unrepeated labels, the number of answers and
/// each answer's range — is decided by healthd's `SampleValidator` (StateOfMindValidator,
/// ScoredAssessmentRules), exactly as for an app's save.
extension ExportConversion {
    public static func sample(_ element: ExportStateOfMind) throws(ImportRefusal) -> ImportedSample {
        let header = element.header
        guard header.type == HKDataTypeIdentifierStateOfMind else {
            throw ImportRefusal(type: header.type, reason: "a StateOfMind element of another type")
        }
        guard let kind = Int(element.kind) else { throw ImportRefusal(type: header.type, reason: "kind is not a number") }
        guard let valence = Double(element.valence), valence.isFinite else {
            throw ImportRefusal(type: header.type, reason: "valence is not a number")
        }
        // Every known value at most once: a longer list repeats one, which the validator refuses anyway.
        let labels = try rawValues(element.labels ?? "", atMost: StateOfMindValue.labels.count, name: "labels", type: header.type)
        let associations = try rawValues(element.associations ?? "", atMost: StateOfMindValue.associations.count,
                                         name: "associations", type: header.type)
        let value = StateOfMindValue(kind: kind, valence: valence, labels: labels, associations: associations)
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .stateOfMind(value), metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        addSyncIdentity(&sample, header, extra: [element.kind, element.valence, element.labels ?? "", element.associations ?? ""])
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
    }

    public static func sample(_ element: ExportScoredAssessment) throws(ImportRefusal) -> ImportedSample {
        let header = element.header
        guard let instrument = ScoredAssessmentRules.instrument(header.type) else {
            throw ImportRefusal(type: header.type, reason: "not a scored assessment type HealthKit knows")
        }
        let answers = try rawValues(element.answers, atMost: instrument.questionCount, name: "answers", type: header.type)
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .scoredAssessment(ScoredAssessmentValue(answers: answers)),
                                  metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        addSyncIdentity(&sample, header, extra: [element.answers])
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
    }

    /// A space-separated list of raw values (an NMTOKENS attribute), refused when an entry is not
    /// a whole number or there are more than `limit` — counted while splitting, so a hostile
    /// attribute never becomes a long array.
    static func rawValues(_ text: String, atMost limit: Int, name: String, type: String) throws(ImportRefusal) -> [Int] {
        var values: [Int] = []
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            guard values.count < limit else { throw ImportRefusal(type: type, reason: "more than \(limit) \(name)") }
            guard let value = Int(token) else { throw ImportRefusal(type: type, reason: "\(name) holds an entry that is not a whole number") }
            values.append(value)
        }
        return values
    }
}
