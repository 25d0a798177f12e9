public import Foundation

/// The checks a medication (`HKUserAnnotatedMedication`) and a dose event
/// (`HKMedicationDoseEvent`) pass before they are stored, from `SampleValidator` — the one
/// validator for every save path (the manager's `healthctl medications`; no app may write either
/// type, `AppWritability`). Apple documents the fields, not bounds; the bounds here are the
/// obvious ones and messages name the field and the bound, never the text or the number.
///
/// - Text (display text, nickname, concept identifier, codings): not empty, at most
///   `maximumTextBytes` UTF-8 bytes, no control characters (a NUL would end the text in C on the
///   wire), no U+FFFD (what invalid UTF-8 becomes when decoded).
/// - General form: one of `MedicationGeneralForms.all`.
/// - A dose: schedule type and log status HealthKit's; unit an HKUnit; quantities finite, ≥ 0,
///   at most `maximumDose`. HKMedicationDoseEvent.h: scheduledDate and scheduledDoseQuantity are
///   "always non-null for scheduled medication dose events, always null for as needed dose
///   events". The scheduled date lies in the sample date window (1900…2200).
/// - Both are one moment: start equals end (a medication's is when it was added).
enum MedicationRules {
    static let maximumTextBytes = 256
    static let maximumCodings = 32
    static let maximumDose = 1_000_000.0

    static func check(_ medication: UserAnnotatedMedicationValue, of record: SampleRecord) throws(HKError) {
        let type = record.typeIdentifier
        try checkMoment(record)
        try checkText(medication.conceptIdentifier, "medication concept identifier", type)
        try checkText(medication.displayText, "displayText", type)
        if let nickname = medication.nickname { try checkText(nickname, "nickname", type) }
        guard MedicationGeneralForms.known.contains(medication.generalForm) else {
            throw HKError(.errorInvalidArgument, "\(type): generalForm must be one of " + MedicationGeneralForms.all.joined(separator: ", "))
        }
        guard medication.relatedCodings.count <= maximumCodings else {
            throw HKError(.errorInvalidArgument, "\(type): a medication holds at most \(maximumCodings) related codings")
        }
        var seen = Set<ClinicalCodingValue>()
        for coding in medication.relatedCodings {
            try checkText(coding.system, "coding system", type)
            try checkText(coding.code, "coding code", type)
            if let version = coding.version { try checkText(version, "coding version", type) }
            guard seen.insert(coding).inserted else { throw HKError(.errorInvalidArgument, "\(type): a related coding is given twice") }
        }
    }

    static func check(_ dose: MedicationDoseEventValue, of record: SampleRecord) throws(HKError) {
        let type = record.typeIdentifier
        try checkMoment(record)
        try checkText(dose.medicationConceptIdentifier, "medicationConceptIdentifier", type)
        guard MedicationDoseEventValue.scheduleTypes.contains(dose.scheduleType) else {
            throw HKError(.errorInvalidArgument, "\(type): scheduleType must be asNeeded (1) or schedule (2)")
        }
        guard MedicationDoseEventValue.logStatuses.contains(dose.logStatus) else {
            throw HKError(.errorInvalidArgument, "\(type): logStatus must be one of HealthKit's (1 notInteracted … 6 notLogged)")
        }
        try checkText(dose.unit, "unit", type)
        do {
            _ = try HKUnit.parse(dose.unit)
        } catch {
            throw HKError(.errorInvalidArgument, "\(type): unit is not a HealthKit unit string")
        }
        try checkDose(dose.doseQuantity, "doseQuantity", type)
        try checkDose(dose.scheduledDoseQuantity, "scheduledDoseQuantity", type)
        if dose.scheduleType == MedicationDoseEventValue.scheduled {
            guard dose.scheduledDate != nil, dose.scheduledDoseQuantity != nil else {
                throw HKError(.errorInvalidArgument, "\(type): a scheduled dose needs its scheduledDate and scheduledDoseQuantity")
            }
        } else {
            guard dose.scheduledDate == nil, dose.scheduledDoseQuantity == nil else {
                throw HKError(.errorInvalidArgument, "\(type): an as-needed dose has no scheduledDate or scheduledDoseQuantity")
            }
        }
        if let scheduled = dose.scheduledDate {
            let window = SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate
            guard window.contains(scheduled) else {
                throw HKError(.errorInvalidArgument, "\(type): scheduledDate must lie between 1900-01-01 and 2200-01-01 (UTC)")
            }
        }
    }

    private static func checkMoment(_ record: SampleRecord) throws(HKError) {
        guard record.startDate == record.endDate else {
            throw HKError(.errorInvalidArgument, "\(record.typeIdentifier): has one date; its start and end must be equal")
        }
    }

    private static func checkDose(_ quantity: Double?, _ field: String, _ type: String) throws(HKError) {
        guard let quantity else { return }
        // The range test is false for NaN, so NaN is refused with ±inf and negatives.
        guard (0...maximumDose).contains(quantity) else {
            throw HKError(.errorInvalidArgument, "\(type): \(field) must be a number from 0 to \(Int(maximumDose))")
        }
    }

    static func checkText(_ text: String, _ field: String, _ type: String) throws(HKError) {
        guard !text.isEmpty else { throw HKError(.errorInvalidArgument, "\(type): \(field) is empty") }
        guard text.utf8.count <= maximumTextBytes else {
            throw HKError(.errorInvalidArgument, "\(type): \(field) is longer than \(maximumTextBytes) bytes (UTF-8)")
        }
        for scalar in text.unicodeScalars where scalar.properties.generalCategory == .control || scalar == "\u{FFFD}" {
            throw HKError(.errorInvalidArgument, "\(type): \(field) holds a control character or invalid UTF-8")
        }
    }
}
