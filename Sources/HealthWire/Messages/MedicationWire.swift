import COpenHealthProto
import Foundation
import HealthModel

/// medications.proto `MedicationValue`: a medication or a dose event inside `Sample` (field 36).
/// Bounds and field rules are `MedicationRules`' (the validator's); the reader copies what
/// protobuf-c unpacked, with one bound of its own on the list of codings.
enum MedicationWire {
    /// More codings than the validator allows cannot be valid; refusing them here keeps the
    /// copy out of the reader.
    static let codingLimit = 64

    static func build(_ value: SampleRecord.Value, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__MedicationValue>? {
        switch value {
        case let .medicationDoseEvent(dose):
            arena.message { (wire: inout Openhealth__V1__MedicationValue) in
                wire.kind_case = OPENHEALTH__V1__MEDICATION_VALUE__KIND_DOSE_EVENT
                wire.dose_event = buildDose(dose, in: arena)
            }
        case let .userAnnotatedMedication(medication):
            arena.message { (wire: inout Openhealth__V1__MedicationValue) in
                wire.kind_case = OPENHEALTH__V1__MEDICATION_VALUE__KIND_MEDICATION
                wire.medication = buildMedication(medication, in: arena)
            }
        default:
            nil
        }
    }

    static func read(_ wire: Openhealth__V1__MedicationValue) throws(WireDecodeError) -> SampleRecord.Value {
        switch wire.kind_case {
        case OPENHEALTH__V1__MEDICATION_VALUE__KIND_DOSE_EVENT:
            guard let dose = wire.dose_event?.pointee else { throw .invalidField("medication dose event missing") }
            return .medicationDoseEvent(try readDose(dose))
        case OPENHEALTH__V1__MEDICATION_VALUE__KIND_MEDICATION:
            guard let medication = wire.medication?.pointee else { throw .invalidField("medication missing") }
            return .userAnnotatedMedication(try readMedication(medication))
        default:
            throw .invalidField("medication value has no kind")
        }
    }

    private static func buildDose(_ dose: MedicationDoseEventValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__MedicationDoseEvent> {
        arena.message { (wire: inout Openhealth__V1__MedicationDoseEvent) in
            wire.medication_concept_identifier = arena.string(dose.medicationConceptIdentifier)
            wire.schedule_type = Int64(dose.scheduleType)
            wire.log_status = Int64(dose.logStatus)
            wire.unit = arena.string(dose.unit)
            if let quantity = dose.doseQuantity {
                wire.has_dose_quantity = 1
                wire.dose_quantity = quantity
            }
            if let quantity = dose.scheduledDoseQuantity {
                wire.has_scheduled_dose_quantity = 1
                wire.scheduled_dose_quantity = quantity
            }
            if let date = dose.scheduledDate {
                wire.has_scheduled_date = 1
                wire.scheduled_date_us = date.microsecondsSince1970
            }
        }
    }

    private static func readDose(_ wire: Openhealth__V1__MedicationDoseEvent) throws(WireDecodeError) -> MedicationDoseEventValue {
        guard let scheduleType = Int(exactly: wire.schedule_type), let logStatus = Int(exactly: wire.log_status) else {
            throw .invalidField("dose event schedule type or log status out of range")
        }
        return MedicationDoseEventValue(
            medicationConceptIdentifier: WireRead.string(wire.medication_concept_identifier), scheduleType: scheduleType,
            logStatus: logStatus, unit: WireRead.string(wire.unit),
            doseQuantity: wire.has_dose_quantity != 0 ? wire.dose_quantity : nil,
            scheduledDoseQuantity: wire.has_scheduled_dose_quantity != 0 ? wire.scheduled_dose_quantity : nil,
            scheduledDate: wire.has_scheduled_date != 0 ? Date(microsecondsSince1970: wire.scheduled_date_us) : nil)
    }

    private static func buildMedication(_ medication: UserAnnotatedMedicationValue,
                                        in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__UserAnnotatedMedication> {
        arena.message { (wire: inout Openhealth__V1__UserAnnotatedMedication) in
            wire.concept_identifier = arena.string(medication.conceptIdentifier)
            wire.display_text = arena.string(medication.displayText)
            wire.general_form = arena.string(medication.generalForm)
            let codings = medication.relatedCodings.map { coding in
                arena.message { (message: inout Openhealth__V1__ClinicalCoding) in
                    message.system = arena.string(coding.system)
                    message.code = arena.string(coding.code)
                    if let version = coding.version {
                        message.has_version = 1
                        message.version = arena.string(version)
                    }
                }
            }
            wire.n_related_codings = codings.count
            wire.related_codings = arena.messages(codings)
            if let nickname = medication.nickname {
                wire.has_nickname = 1
                wire.nickname = arena.string(nickname)
            }
            wire.is_archived = medication.isArchived ? 1 : 0
            wire.has_schedule = medication.hasSchedule ? 1 : 0
        }
    }

    private static func readMedication(_ wire: Openhealth__V1__UserAnnotatedMedication) throws(WireDecodeError) -> UserAnnotatedMedicationValue {
        guard wire.n_related_codings <= codingLimit else { throw .invalidField("a medication holds at most \(codingLimit) related codings") }
        let codings = WireRead.messages(wire.related_codings, count: wire.n_related_codings).map { coding in
            ClinicalCodingValue(system: WireRead.string(coding.system), version: coding.has_version != 0 ? WireRead.string(coding.version) : nil,
                                code: WireRead.string(coding.code))
        }
        return UserAnnotatedMedicationValue(
            conceptIdentifier: WireRead.string(wire.concept_identifier), displayText: WireRead.string(wire.display_text),
            generalForm: WireRead.string(wire.general_form), relatedCodings: codings,
            nickname: wire.has_nickname != 0 ? WireRead.string(wire.nickname) : nil,
            isArchived: wire.is_archived != 0, hasSchedule: wire.has_schedule != 0)
    }
}
