public import Foundation
public import HealthModel

/// How `healthctl samples` shows a sample: table cells in the user's time zone, or one JSON
/// object per line in UTC. Quantities are shown in `displayUnit` when one was asked for.
public struct SampleFormatter: Sendable {
    public let displayUnit: HKUnit?
    public let timeZone: TimeZone

    public init(displayUnit: HKUnit?, timeZone: TimeZone) {
        self.displayUnit = displayUnit
        self.timeZone = timeZone
    }

    public static let tableColumns: [TextTable.Column] = [
        .init("START"), .init("END"), .init("VALUE", .right), .init("UNIT"), .init("SOURCE"), .init("DEVICE"),
    ]

    public func tableRow(_ sample: SampleRecord) -> [String] {
        var (value, unit) = displayedValue(sample.value, typeIdentifier: sample.typeIdentifier)
        // A quantity series shows its sum or average (HealthKit's `quantity`) and how many
        // quantities it holds; `--json` has its summary.
        if let series = sample.quantitySeries { unit += " (series of \(series.count))" }
        return [localTime(sample.startDate), localTime(sample.endDate), value, unit,
                SourceLabel.text(sample.source),
                sample.device?.name ?? ""]
    }

    /// One line of JSON (no trailing newline), keys sorted so lines diff cleanly.
    public func jsonLine(_ sample: SampleRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSON has no infinity or NaN. The broker refuses them on save, but a store written by
        // an older version may hold them: they print as strings rather than failing the line.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return String(decoding: try encoder.encode(SampleJSONLine(sample, formatter: self)), as: UTF8.self)
        } catch {
            // Still one valid JSON line per sample, saying which one could not be shown.
            let uuid = sample.uuid.uuidString.lowercased()
            return #"{"error":"this sample could not be encoded as JSON","uuid":"\#(uuid)"}"#
        }
    }

    /// The value and unit text: converted to `displayUnit` when that is compatible, else as stored.
    /// `typeIdentifier` tells which instrument scores an assessment.
    func displayedValue(_ value: SampleRecord.Value, typeIdentifier: String) -> (value: String, unit: String) {
        switch value {
        case let .category(raw):
            return ("\(raw)", "")
        case let .correlation(objects):
            // The samples themselves are listed under their own types.
            return ("\(objects.count)", objects.count == 1 ? "sample" : "samples")
        case let .quantity(amount, unit):
            let (converted, shownUnit) = convertedQuantity(amount, unit)
            return (NumberText.measurement(converted), shownUnit)
        case let .workout(workout):
            // A workout's one number is its duration; its activity and totals are in --json.
            return (NumberText.measurement(workout.duration), "s")
        case let .workoutRoute(count):
            return ("\(count)", "locations")
        case let .heartbeatSeries(series):
            return ("\(series.count)", series.count == 1 ? "beat" : "beats")
        case let .electrocardiogram(ecg):
            // The classification is what a person looks for first; the rate when there is one.
            let rate = ecg.averageHeartRate.map { ", " + NumberText.measurement($0) + " BPM" } ?? ""
            return (ElectrocardiogramText.classification(ecg.classification) + rate, "")
        case let .stateOfMind(stateOfMind):
            // The band first, as the Health app shows it; the number for whoever compares.
            return ("\(StateOfMindText.classification(stateOfMind.valence)) (\(NumberText.measurement(stateOfMind.valence))), "
                    + StateOfMindText.detail(stateOfMind), "")
        case let .scoredAssessment(assessment):
            let score = AssessmentText.score(assessment, typeIdentifier: typeIdentifier).map(String.init) ?? ""
            return (score, "score, " + AssessmentText.detail(assessment, typeIdentifier: typeIdentifier))
        case let .audiogram(audiogram):
            let (count, noun) = AudiogramText.count(audiogram)
            return (count, noun + ": " + AudiogramText.detail(audiogram))
        case let .document(document):
            return ("\(document.data.count)", "bytes, " + DocumentText.detail(document))
        case let .clinicalRecord(record):
            return (record.displayName, ClinicalRecordText.detail(record))
        case let .visionPrescription(prescription):
            let expires = prescription.expirationDate.map { ", expires " + localTime($0) } ?? ""
            return (VisionPrescriptionText.kind(prescription), VisionPrescriptionText.detail(prescription) + expires)
        case let .medicationDoseEvent(dose):
            return (MedicationText.status(dose), MedicationText.detail(dose, localTime: localTime))
        case let .userAnnotatedMedication(medication):
            return (MedicationText.name(medication), MedicationText.detail(medication))
        }
    }

    func convertedQuantity(_ amount: Double, _ unit: String) -> (Double, String) {
        guard let displayUnit,
              let converted = try? HKQuantity(unit: HKUnit(from: unit), doubleValue: amount).value(in: displayUnit)
        else { return (amount, unit) }
        return (converted, displayUnit.unitString)
    }

    /// "2024-05-01 08:30:00" in the user's zone: fixed width, so table columns line up.
    func localTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        // A Gregorian calendar fills every component asked for; 0 only keeps this total.
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
