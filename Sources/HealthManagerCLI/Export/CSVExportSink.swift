import AppleHealthExport
import Foundation
import HealthModel

/// `healthctl export --format csv`: a folder with one CSV file per type (`StepCount.csv`, …),
/// RFC 4180, UTF-8, a header row, dates in ISO 8601 UTC, quantities in the type's export unit
/// (`ExportUnits`), metadata as a JSON object. Text that a spreadsheet would run as a formula
/// (a source named `=HYPERLINK(…)`) is written with a leading apostrophe. Each workout's routes
/// are written as GPX files under `workout-routes/`, named in the workout's row.
final class CSVExportSink: ExportSink {
    let wantsRoutes = true
    static let header = "uuid,type,start,end,value,unit,source,source_version,device,detail,metadata\n"
    private var output: StagedOutput
    private let units: ExportUnits
    private var currentType: String?
    private var file: BufferedFile?
    private var routeFolderMade = false

    init(destination: URL, units: ExportUnits) throws(HealthCtlError) {
        output = try StagedOutput(destination: destination, kind: .folder)
        self.units = units
    }

    func add(_ sample: SampleRecord, routes: [ExportedRoute]) throws(HealthCtlError) {
        if currentType != sample.typeIdentifier {
            try file?.close()
            let name = Self.fileName(of: sample.typeIdentifier)
            file = BufferedFile(handle: try output.createFile(named: name), path: output.destination.appendingPathComponent(name).path)
            currentType = sample.typeIdentifier
            try file?.write(Self.header)
        }
        var routeFiles: [String] = []
        for route in routes {
            routeFiles.append(try writeRoute(route))
        }
        try file?.write(row(sample, routeFiles: routeFiles))
    }

    /// `workout-routes/route_….gpx` in the folder; its name, for the workout's row.
    private func writeRoute(_ route: ExportedRoute) throws(HealthCtlError) -> String {
        if !routeFolderMade {
            do {
                try FileManager.default.createDirectory(at: output.staged.appendingPathComponent("workout-routes"),
                                                        withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .exportFailed(path: output.destination.path, reason: "cannot create workout-routes (\(error.localizedDescription))")
            }
            routeFolderMade = true
        }
        let name = "workout-routes/" + GPXRouteWriter.fileName(start: route.startDate, uuid: route.uuid, timeZone: .gmt)
        let gpx = BufferedFile(handle: try output.createFile(named: name), path: output.destination.appendingPathComponent(name).path)
        try gpx.write(GPXRouteWriter.gpx(route.locations, name: name))
        try gpx.close()
        return name
    }

    func finish() throws(HealthCtlError) {
        try file?.close()
        file = nil
        try output.commit()
    }

    func discard() {
        try? file?.close()
        output.discard()
    }

    /// `HKQuantityTypeIdentifierStepCount` → `StepCount.csv`, `HKWorkoutTypeIdentifier` → `Workout.csv`,
    /// `HKScoredAssessmentTypeIdentifierGAD7` → `GAD7.csv`.
    static func fileName(of type: String) -> String {
        let prefixes = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
                        "HKScoredAssessmentTypeIdentifier", "HKDataTypeIdentifier", "HKDocumentTypeIdentifier",
                        "HK"]  // HKVisionPrescriptionTypeIdentifier → VisionPrescription.csv
        var stem = prefixes.first(where: type.hasPrefix).map { String(type.dropFirst($0.count)) } ?? type
        if stem.hasSuffix("TypeIdentifier") { stem = String(stem.dropLast("TypeIdentifier".count)) }  // HKWorkoutTypeIdentifier
        return stem.filter { $0.isLetter || $0.isNumber } + ".csv"
    }

    private func row(_ sample: SampleRecord, routeFiles: [String]) -> String {
        var (value, unit, detail) = cells(sample.value, typeIdentifier: sample.typeIdentifier)
        if !routeFiles.isEmpty { detail += "; route " + routeFiles.joined(separator: ", ") }
        let source = ExportSourceName.of(sample.source)
        let fields = [
            sample.uuid.uuidString.lowercased(), sample.typeIdentifier, SampleJSONLine.timestamp(sample.startDate),
            SampleJSONLine.timestamp(sample.endDate), value, unit, Self.text(source.name), Self.text(source.version ?? ""),
            Self.text(sample.device?.name ?? ""), Self.text(detail), Self.text(ExportMetadataJSON.text(sample.metadata)),
        ]
        return fields.map(Self.quoted).joined(separator: ",") + "\n"
    }

    private func cells(_ value: SampleRecord.Value, typeIdentifier: String) -> (value: String, unit: String, detail: String) {
        switch value {
        case let .quantity(amount, stored):
            let (converted, unit) = units.converted(amount, stored, typeIdentifier: typeIdentifier)
            return (Self.number(converted), unit, "")
        case let .category(raw):
            return ("\(raw)", "", "")
        case let .workout(workout):
            var detail = "activity \(workout.activityType)"
            if let distance = workout.totalDistance { detail += "; distance \(distance.value) \(distance.unit)" }
            if let energy = workout.totalEnergyBurned { detail += "; energy \(energy.value) \(energy.unit)" }
            return (Self.number(workout.duration), "s", detail)
        case let .workoutRoute(count):
            return ("\(count)", "locations", "")
        case let .heartbeatSeries(series):
            return ("\(series.count)", "beats", "")
        case let .electrocardiogram(ecg):
            let frequency = ecg.samplingFrequency.map { "; \(Self.number($0)) Hz" } ?? ""
            return (ecg.averageHeartRate.map(Self.number) ?? "", ecg.averageHeartRate == nil ? "" : "count/min",
                    "\(ElectrocardiogramText.classification(ecg.classification)); \(ecg.voltageCount) voltages\(frequency)")
        case let .stateOfMind(stateOfMind):
            return (Self.number(stateOfMind.valence), "valence",
                    "\(StateOfMindText.classification(stateOfMind.valence)); \(StateOfMindText.detail(stateOfMind))")
        case let .scoredAssessment(assessment):
            return (AssessmentText.score(assessment, typeIdentifier: typeIdentifier).map(String.init) ?? "", "score",
                    AssessmentText.detail(assessment, typeIdentifier: typeIdentifier))
        case let .audiogram(audiogram):
            let (count, noun) = AudiogramText.count(audiogram)
            return (count, noun, AudiogramText.detail(audiogram))
        case let .document(document):
            return ("\(document.data.count)", "bytes", DocumentText.detail(document))
        case let .clinicalRecord(record):
            return (record.displayName, "", ClinicalRecordText.detail(record))
        case let .visionPrescription(prescription):
            let expires = prescription.expirationDate.map { "; expires " + SampleJSONLine.timestamp($0) } ?? ""
            return (VisionPrescriptionText.kind(prescription), "", VisionPrescriptionText.detail(prescription) + expires)
        case let .medicationDoseEvent(dose):
            return (dose.doseQuantity.map(Self.number) ?? "", dose.unit,
                    MedicationText.status(dose) + "; " + MedicationText.detail(dose, localTime: SampleJSONLine.timestamp))
        case let .userAnnotatedMedication(medication):
            return (MedicationText.name(medication), "", MedicationText.detail(medication))
        case let .correlation(members):
            let listed = members.map { member -> String in
                guard case let .quantity(amount, stored) = member.value else { return member.typeIdentifier }
                let (converted, unit) = units.converted(amount, stored, typeIdentifier: member.typeIdentifier)
                return "\(member.typeIdentifier)=\(converted) \(unit)"
            }
            return ("\(members.count)", "samples", listed.joined(separator: "; "))
        }
    }

    /// A whole number without ".0" (1234 steps), anything else in the shortest exact form.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// Free text: a leading `=`, `+`, `-`, `@`, tab or carriage return would make a spreadsheet
    /// read the cell as a formula (CSV injection), so such text gets a leading apostrophe.
    static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
