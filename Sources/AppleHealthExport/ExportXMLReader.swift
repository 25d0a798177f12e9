import Foundation
import HealthModel

/// Reads a sanitized `export.xml` with libxml2's SAX2 push parser (`ExportXMLStream`) and hands
/// each top-level item to `handler` as soon as its element closes, so memory holds one workout or
/// correlation at a time. Unknown elements are counted in `skipped`, never silently mistaken for
/// something else.
final class ExportXMLReader {
    private let fileName: String
    private let handler: (ExportItem) throws -> Void
    private let progress: ((Int) -> Void)?
    private(set) var skipped: [String: Int] = [:]
    /// Distinct element names `skipped` keeps; past them, the rest are counted under
    /// `otherSkippedName` (a file of endless new names must not grow the list without bound).
    static let maximumSkippedNames = 256
    static let otherSkippedName = "other elements"
    /// What the open item has gathered so far, counted as each child arrives.
    private var budget = ExportItemBudget()

    // The item being built; nested elements attach to the innermost.
    private var record: ExportRecord?
    private var correlation: ExportCorrelation?
    private var workout: ExportWorkout?
    private var route: ExportWorkoutRoute?
    /// An open `WorkoutActivity`: its events, statistics and metadata are its own, not the workout's.
    private var activity: ExportWorkoutActivity?
    private var audiogram: ExportAudiogram?
    private var prescription: ExportVisionPrescription?
    private var stateOfMind: ExportStateOfMind?
    private var assessment: ExportScoredAssessment?
    private var document: ExportDocument?
    private var skipDepth = 0
    private var lastReportedLine = 0

    init(fileName: String, progress: ((Int) -> Void)?, handler: @escaping (ExportItem) throws -> Void) {
        self.fileName = fileName
        self.handler = handler
        self.progress = progress
    }

    /// Reads the (sanitized) file at `path`; throws the handler's error, an element's
    /// `invalidElement`, or `malformed` with libxml2's line and column.
    func read(path: String) throws {
        try ExportXMLStream.parse(path: path, fileName: fileName, handlers: .init(
            start: { [unowned self] name, attributes, line in
                if skipDepth > 0 { skipDepth += 1; return }
                if insideSample {
                    try budget.admit(name, textBytes: attributes.valueBytes, line: line, file: fileName)
                } else {
                    budget.start(item: name, line: line)
                }
                try start(name, ElementAttributes(name: name, values: attributes, file: fileName, line: line))
                if let progress, line - lastReportedLine >= 10_000 {
                    lastReportedLine = line
                    progress(line)
                }
            },
            end: { [unowned self] name in
                if skipDepth > 0 { skipDepth -= 1; return }
                try end(name)
            }))
    }

    /// Whether a sample element is open: OpenHealthKit's own elements are read only at the top level.
    private var insideSample: Bool {
        record != nil || correlation != nil || workout != nil || audiogram != nil || prescription != nil
            || stateOfMind != nil || assessment != nil || document != nil
    }

    private func start(_ name: String, _ element: ElementAttributes) throws {
        let attributes = element.values
        let line = element.line
        switch name {
        case "HealthData":
            break
        case "ExportDate":
            try handler(.exportDate(try element.date("value")))
        case "Me":
            try handler(.me(ExportCharacteristics(values: attributes.dictionary)))
        case "Record":
            record = ExportRecord(header: try element.header(typeKey: "type"), unit: attributes["unit"],
                                  value: attributes["value"], beats: [])
        case "Audiogram" where workout == nil && correlation == nil && audiogram == nil:
            audiogram = ExportAudiogram(header: try element.header(typeKey: "type"), points: [])
        case "SensitivityPoint" where audiogram != nil:
            guard let frequency = element.measure("frequencyValue", unitKey: "frequencyUnit") else { throw element.invalid("has no frequencyValue") }
            audiogram?.points.append(ExportSensitivityPoint(frequency: frequency, leftEar: element.measure("leftEarValue", unitKey: "leftEarUnit"),
                                                            rightEar: element.measure("rightEarValue", unitKey: "rightEarUnit")))
        case "SensitivityTest" where audiogram?.points.isEmpty == false:
            // A point's tests are few (`ExportConversion.maxImportedTestsPerPoint`); past twice that
            // a hostile file is not allowed to grow the point further — the conversion refuses it.
            guard let count = audiogram?.points.last?.tests.count, count <= 2 * ExportConversion.maxImportedTestsPerPoint else {
                throw element.invalid("is one of too many tests at one frequency")
            }
            guard let sensitivity = element.measure("sensitivityValue", unitKey: "sensitivityUnit") else {
                throw element.invalid("has no sensitivityValue")
            }
            let test = ExportSensitivityTest(side: try element.required("side"), sensitivity: sensitivity,
                                             conductionType: attributes["conductionType"], masked: attributes["masked"],
                                             clampingLowerBound: attributes["clampingLowerBound"],
                                             clampingUpperBound: attributes["clampingUpperBound"])
            if let last = audiogram?.points.indices.last { audiogram?.points[last].tests.append(test) }
        case "StateOfMind" where !insideSample:
            stateOfMind = ExportStateOfMind(header: try element.header(typeKey: "type"), kind: try element.required("kind"),
                                            valence: try element.required("valence"), labels: attributes["labels"],
                                            associations: attributes["associations"])
        case "ScoredAssessment" where !insideSample:
            assessment = ExportScoredAssessment(header: try element.header(typeKey: "type"), answers: attributes["answers"] ?? "")
        case "CDADocument" where !insideSample:
            document = ExportDocument(header: try element.header(typeKey: "type"), filePath: nil)
        case "VisionPrescription" where workout == nil && correlation == nil && audiogram == nil && prescription == nil:
            prescription = try element.visionPrescription()
        case "RightEye" where prescription != nil && prescription?.rightEye == nil:
            prescription?.rightEye = element.lens()
        case "LeftEye" where prescription != nil && prescription?.leftEye == nil:
            prescription?.leftEye = element.lens()
        case "Attachment" where prescription != nil:
            prescription?.attachments += 1
        case "Correlation" where workout == nil && correlation == nil:
            correlation = ExportCorrelation(header: try element.header(typeKey: "type"), records: [])
        case "Workout" where workout == nil && correlation == nil:
            var header = try element.header(typeKey: "workoutActivityType")
            header.type = "HKWorkoutTypeIdentifier"
            workout = ExportWorkout(header: header, activityType: try element.required("workoutActivityType"),
                                    duration: element.measure("duration"), totalDistance: element.measure("totalDistance"),
                                    totalEnergyBurned: element.measure("totalEnergyBurned"),
                                    events: [], statistics: [], routes: [])
        case "WorkoutActivity" where workout != nil && activity == nil && route == nil:
            activity = ExportWorkoutActivity(uuid: attributes["uuid"], startDate: try element.date("startDate"),
                                             endDate: try element.optionalDate("endDate"), duration: element.measure("duration"),
                                             events: [], statistics: [], metadata: [], line: line)
        case "WorkoutEvent" where workout != nil:
            let event = ExportWorkoutEvent(type: try element.required("type"), date: try element.date("date"),
                                           duration: element.measure("duration"))
            if activity != nil { activity?.events.append(event) } else { workout?.events.append(event) }
        case "WorkoutStatistics" where workout != nil:
            let statistic = ExportWorkoutStatistics(
                // Dates only newer exports write, and only informative (the statistic covers its
                // workout or activity either way): one that does not parse is left out, not fatal.
                type: try element.required("type"), startDate: attributes["startDate"].flatMap(ExportDate.parse),
                endDate: attributes["endDate"].flatMap(ExportDate.parse), sum: attributes["sum"], average: attributes["average"],
                minimum: attributes["minimum"], maximum: attributes["maximum"], unit: attributes["unit"])
            if activity != nil { activity?.statistics.append(statistic) } else { workout?.statistics.append(statistic) }
        case "WorkoutRoute" where workout != nil && route == nil:
            route = ExportWorkoutRoute(source: element.source(), filePath: nil, locations: [])
        case "FileReference" where route != nil:
            route?.filePath = try element.required("path")
        case "FileReference" where document != nil && document?.filePath == nil:
            document?.filePath = try element.required("path")
        case "Location" where route != nil:
            route?.locations.append(try element.location())
        case "MetadataEntry":
            let entry = ExportMetadataEntry(key: try element.required("key"), value: attributes["value"] ?? "")
            if record != nil { record?.header.metadata.append(entry) }
            else if route != nil { /* route metadata is not kept: routes carry none in HealthKit's model */ }
            else if activity != nil { activity?.metadata.append(entry) }
            else if workout != nil { workout?.header.metadata.append(entry) }
            else if correlation != nil { correlation?.header.metadata.append(entry) }
            else if audiogram != nil { audiogram?.header.metadata.append(entry) }
            else if prescription != nil { prescription?.header.metadata.append(entry) }
            else if stateOfMind != nil { stateOfMind?.header.metadata.append(entry) }
            else if assessment != nil { assessment?.header.metadata.append(entry) }
            else if document != nil { document?.header.metadata.append(entry) }
            else { skipped["MetadataEntry", default: 0] += 1 }
        case "HeartRateVariabilityMetadataList" where record != nil:
            break
        case "InstantaneousBeatsPerMinute" where record != nil:
            record?.beats.append(ExportBeat(bpm: try element.required("bpm"), time: try element.required("time")))
        case "ClinicalRecord":
            try handler(.clinicalRecord(ExportClinicalRecord(
                type: try element.required("type"), identifier: try element.required("identifier"),
                sourceName: element.values["sourceName"], sourceURL: element.values["sourceURL"],
                fhirVersion: try element.required("fhirVersion"), receivedDate: try element.date("receivedDate"),
                resourceFilePath: try element.required("resourceFilePath"), line: line)))
        case "ActivitySummary":
            var values = attributes.dictionary
            let day = values.removeValue(forKey: "dateComponents")
            guard let day, !day.isEmpty else { throw element.invalid("has no dateComponents") }
            try handler(.activitySummary(ExportActivitySummary(day: day, values: values)))
        default:
            let counted = skipped[name] != nil || skipped.count < Self.maximumSkippedNames ? name : Self.otherSkippedName
            skipped[counted, default: 0] += 1
            skipDepth = 1
        }
    }

    private func end(_ name: String) throws {
        switch name {
        case "Record":
            guard let finished = record else { return }
            record = nil
            if correlation != nil { correlation?.records.append(finished) } else { try handler(.record(finished)) }
        case "Correlation":
            guard let finished = correlation else { return }
            correlation = nil
            try handler(.correlation(finished))
        case "WorkoutActivity":
            guard let finished = activity else { return }
            activity = nil
            workout?.activities.append(finished)
        case "WorkoutRoute":
            guard let finished = route else { return }
            route = nil
            workout?.routes.append(finished)
        case "Audiogram":
            guard let finished = audiogram else { return }
            audiogram = nil
            try handler(.audiogram(finished))
        case "VisionPrescription":
            guard let finished = prescription else { return }
            prescription = nil
            try handler(.visionPrescription(finished))
        case "StateOfMind":
            guard let finished = stateOfMind else { return }
            stateOfMind = nil
            try handler(.stateOfMind(finished))
        case "ScoredAssessment":
            guard let finished = assessment else { return }
            assessment = nil
            try handler(.scoredAssessment(finished))
        case "CDADocument":
            guard let finished = document else { return }
            document = nil
            try handler(.document(finished))
        case "Workout":
            guard let finished = workout else { return }
            workout = nil
            try handler(.workout(finished))
        default:
            break
        }
    }
}

/// One element's attributes, with the checks every element kind shares. Valid only while the
/// element's start is being handled (its values point into libxml2's buffer).
private struct ElementAttributes {
    let name: String
    let values: ExportXMLStream.Attributes
    let file: String
    let line: Int

    func invalid(_ reason: String) -> ExportReadError {
        .invalidElement(file: file, element: name, line: line, reason: reason)
    }

    func required(_ key: String) throws -> String {
        guard let value = values[key], !value.isEmpty else { throw invalid("has no \(key)") }
        return value
    }

    func date(_ key: String) throws -> Date {
        let text = try required(key)
        guard let date = ExportDate.parse(text) else { throw invalid("has a \(key) that is not a date: \"\(text)\"") }
        return date
    }

    func optionalDate(_ key: String) throws -> Date? {
        values[key] == nil ? nil : try date(key)
    }

    func measure(_ key: String) -> ExportMeasure? {
        measure(key, unitKey: key + "Unit")
    }

    func measure(_ key: String, unitKey: String) -> ExportMeasure? {
        values[key].map { ExportMeasure(value: $0, unit: values[unitKey]) }
    }

    /// iOS 8 exports name the source `source`, later ones `sourceName`.
    func source() -> ExportSource {
        ExportSource(name: values["sourceName"] ?? values["source"], version: values["sourceVersion"], device: values["device"])
    }

    func header(typeKey: String) throws -> ExportSampleHeader {
        ExportSampleHeader(type: try required(typeKey), source: source(), creationDate: try optionalDate("creationDate"),
                                  startDate: try date("startDate"), endDate: try date("endDate"), metadata: [], line: line)
    }

    /// A `VisionPrescription`'s own attributes. Its one date is `dateIssued` (the sample's start
    /// and end); Apple writes no source, files of this project do (`ExportXMLWriter`).
    func visionPrescription() throws -> ExportVisionPrescription {
        let issued = try date("dateIssued")
        let header = ExportSampleHeader(type: HKVisionPrescriptionTypeIdentifier, source: source(),
                                        creationDate: try optionalDate("creationDate"), startDate: issued, endDate: issued,
                                        metadata: [], line: line)
        return ExportVisionPrescription(header: header, kind: try required("type"), expirationDate: try optionalDate("expirationDate"),
                                        brand: values["brand"], rightEye: nil, leftEye: nil, attachments: 0)
    }

    /// A `RightEye`/`LeftEye`: the fields it has, values and units as written.
    func lens() -> ExportLens {
        var fields: [String: ExportMeasure] = [:]
        for name in ExportLens.fieldNames {
            if let measure = measure(name) { fields[name] = measure }
        }
        return ExportLens(fields: fields)
    }

    func location() throws -> ExportLocation {
        func number(_ key: String) throws -> Double? {
            guard let text = values[key] else { return nil }
            guard let value = Double(text), value.isFinite else { throw invalid("has a \(key) that is not a number: \"\(text)\"") }
            return value
        }
        guard let latitude = try number("latitude"), let longitude = try number("longitude") else {
            throw invalid("needs latitude and longitude")
        }
        return ExportLocation(date: try date("date"), latitude: latitude, longitude: longitude, altitude: try number("altitude"),
                              horizontalAccuracy: try number("horizontalAccuracy"), verticalAccuracy: try number("verticalAccuracy"),
                              course: try number("course"), speed: try number("speed"))
    }
}
