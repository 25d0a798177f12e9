import Foundation
import HealthModel

/// How a medication and a dose event read in `healthctl samples` and `healthctl medications`.
enum MedicationText {
    static func name(_ medication: UserAnnotatedMedicationValue) -> String {
        medication.nickname.map { "\($0) (\(medication.displayText))" } ?? medication.displayText
    }

    static func detail(_ medication: UserAnnotatedMedicationValue) -> String {
        var parts = [medication.generalForm, "concept \(medication.conceptIdentifier)"]
        if medication.hasSchedule { parts.append("scheduled") }
        if medication.isArchived { parts.append("archived") }
        parts += medication.relatedCodings.map { coding in "\(coding.system)|\(coding.code)" + (coding.version.map { " (\($0))" } ?? "") }
        return parts.joined(separator: ", ")
    }

    static func status(_ dose: MedicationDoseEventValue) -> String {
        let index = dose.logStatus - 1
        return MedicationDoseEventValue.logStatusNames.indices.contains(index) ? MedicationDoseEventValue.logStatusNames[index] : "status \(dose.logStatus)"
    }

    static func detail(_ dose: MedicationDoseEventValue, localTime: (Date) -> String) -> String {
        var parts = ["medication \(dose.medicationConceptIdentifier)",
                     dose.scheduleType == MedicationDoseEventValue.scheduled ? "scheduled" : "as needed"]
        if let quantity = dose.doseQuantity { parts.append("dose \(NumberText.measurement(quantity)) \(dose.unit)") }
        if let quantity = dose.scheduledDoseQuantity { parts.append("scheduled dose \(NumberText.measurement(quantity)) \(dose.unit)") }
        if let date = dose.scheduledDate { parts.append("scheduled for \(localTime(date))") }
        return parts.joined(separator: ", ")
    }
}
