import Foundation
import GRDB
import HealthModel

/// A medication's and a dose event's side rows (`medications`, `medication_codings`,
/// `medication_dose_events`). Reads here are keyed by an object id the caller already found
/// visible (`SampleRowDecoder`), so no read here decides visibility.
enum MedicationRows {
    /// Stores a validated medication or dose event (row id `objectID`); other values are not
    /// these tables'. A dose event must name a medication the store holds, and a medication's
    /// concept identifier must be new: both refusals name the rule, never the text.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        switch value {
        case let .userAnnotatedMedication(medication):
            guard try !exists(conceptID: medication.conceptIdentifier, db) else {
                throw HKError(.errorInvalidArgument, "a medication with this concept identifier is already tracked")
            }
            try db.execute(sql: """
                INSERT INTO medications (object_id, concept_id, display_text, general_form, nickname, is_archived, has_schedule)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [objectID, medication.conceptIdentifier, medication.displayText, medication.generalForm,
                                 medication.nickname, medication.isArchived, medication.hasSchedule])
            let coding = try db.cachedStatement(sql: """
                INSERT INTO medication_codings (object_id, position, system, version, code) VALUES (?, ?, ?, ?, ?)
                """)
            for (position, value) in medication.relatedCodings.enumerated() {
                try coding.execute(arguments: [objectID, position, value.system, value.version, value.code])
            }
        case let .medicationDoseEvent(dose):
            guard try exists(conceptID: dose.medicationConceptIdentifier, db) else {
                throw HKError(.errorInvalidArgument, "a dose event must name a tracked medication's concept identifier")
            }
            try db.execute(sql: """
                INSERT INTO medication_dose_events
                    (object_id, concept_id, schedule_type, log_status, unit, dose_quantity, scheduled_dose_quantity, scheduled_us)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [objectID, dose.medicationConceptIdentifier, dose.scheduleType, dose.logStatus, dose.unit,
                                 dose.doseQuantity, dose.scheduledDoseQuantity, dose.scheduledDate?.microsecondsSince1970])
        default:
            return
        }
    }

    private static func exists(conceptID: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM medications WHERE concept_id = ?)"),
                          arguments: [conceptID]) ?? false
    }

    static func holdsValue(of typeIdentifier: String) -> Bool {
        typeIdentifier == HKDataTypeIdentifierUserAnnotatedMedicationConcept || typeIdentifier == HKMedicationDoseEventTypeIdentifierMedicationDoseEvent
    }

    /// A fetched medication's or dose event's value; nil for other types.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        switch typeIdentifier {
        case HKDataTypeIdentifierUserAnnotatedMedicationConcept:
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT concept_id, display_text, general_form, nickname, is_archived, has_schedule FROM medications WHERE object_id = ?
                """), arguments: [objectID]) else {
                throw StoreIntegrityError.missingMedicationRow
            }
            let codings = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT system, version, code FROM medication_codings WHERE object_id = ? ORDER BY position
                """), arguments: [objectID]).map { ClinicalCodingValue(system: $0["system"], version: $0["version"], code: $0["code"]) }
            return .userAnnotatedMedication(UserAnnotatedMedicationValue(
                conceptIdentifier: row["concept_id"], displayText: row["display_text"], generalForm: row["general_form"],
                relatedCodings: codings, nickname: row["nickname"], isArchived: row["is_archived"], hasSchedule: row["has_schedule"]))
        case HKMedicationDoseEventTypeIdentifierMedicationDoseEvent:
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT concept_id, schedule_type, log_status, unit, dose_quantity, scheduled_dose_quantity, scheduled_us
                FROM medication_dose_events WHERE object_id = ?
                """), arguments: [objectID]) else {
                throw StoreIntegrityError.missingMedicationRow
            }
            let scheduledUS: Int64? = row["scheduled_us"]
            return .medicationDoseEvent(MedicationDoseEventValue(
                medicationConceptIdentifier: row["concept_id"], scheduleType: row["schedule_type"], logStatus: row["log_status"],
                unit: row["unit"], doseQuantity: row["dose_quantity"], scheduledDoseQuantity: row["scheduled_dose_quantity"],
                scheduledDate: scheduledUS.map(Date.init(microsecondsSince1970:))))
        default:
            return nil
        }
    }
}
