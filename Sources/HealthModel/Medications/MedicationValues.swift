public import Foundation

/// `HKClinicalCoding` (iOS 26) as a value: a code in a coding system (FHIR's Coding), such as
/// RxNorm's `http://www.nlm.nih.gov/research/umls/rxnorm` and a numeric code.
public struct ClinicalCodingValue: Hashable, Sendable {
    public var system: String
    public var version: String?
    public var code: String

    public init(system: String, version: String? = nil, code: String) {
        self.system = system
        self.version = version
        self.code = code
    }
}

/// `HKUserAnnotatedMedication` and its `HKMedicationConcept` (iOS 26) as a value: what the user
/// entered in the manager (`healthctl medications add`), stored as an object of
/// `HKDataTypeIdentifierUserAnnotatedMedicationConcept` so that per-object read grants name it.
/// Apps read it, never write it (`AppWritability`).
public struct UserAnnotatedMedicationValue: Hashable, Sendable {
    /// `HKMedicationConcept.identifier` (an `HKHealthConceptIdentifier` in the medication
    /// domain): stable, unique among the user's medications; dose events name it.
    public var conceptIdentifier: String
    /// `HKMedicationConcept.displayText`.
    public var displayText: String
    /// `HKMedicationConcept.generalForm`: one of `MedicationGeneralForms.all`.
    public var generalForm: String
    /// `HKMedicationConcept.relatedCodings`, in the order entered (a set in HealthKit).
    public var relatedCodings: [ClinicalCodingValue]
    /// `HKUserAnnotatedMedication.nickname`.
    public var nickname: String?
    /// `HKUserAnnotatedMedication.isArchived`.
    public var isArchived: Bool
    /// `HKUserAnnotatedMedication.hasSchedule`.
    public var hasSchedule: Bool

    public init(conceptIdentifier: String, displayText: String, generalForm: String, relatedCodings: [ClinicalCodingValue] = [],
                nickname: String? = nil, isArchived: Bool = false, hasSchedule: Bool = false) {
        self.conceptIdentifier = conceptIdentifier
        self.displayText = displayText
        self.generalForm = generalForm
        self.relatedCodings = relatedCodings
        self.nickname = nickname
        self.isArchived = isArchived
        self.hasSchedule = hasSchedule
    }
}

/// `HKMedicationDoseEvent` (iOS 26) as a value. Raw values are HealthKit's (HKMedicationDoseEvent.h).
public struct MedicationDoseEventValue: Hashable, Sendable {
    /// `medicationConceptIdentifier`: the medication this dose was logged for.
    public var medicationConceptIdentifier: String
    /// `HKMedicationDoseEvent.ScheduleType` raw value: 1 asNeeded, 2 schedule.
    public var scheduleType: Int
    /// `HKMedicationDoseEvent.LogStatus` raw value: 1 notInteracted … 6 notLogged.
    public var logStatus: Int
    /// `unit`: an HKUnit string (the medication's unit when the dose was logged).
    public var unit: String
    /// `doseQuantity`, in `unit`.
    public var doseQuantity: Double?
    /// `scheduledDoseQuantity`, in `unit`: set for scheduled doses only.
    public var scheduledDoseQuantity: Double?
    /// `scheduledDate`: set for scheduled doses only.
    public var scheduledDate: Date?

    public init(medicationConceptIdentifier: String, scheduleType: Int, logStatus: Int, unit: String,
                doseQuantity: Double? = nil, scheduledDoseQuantity: Double? = nil, scheduledDate: Date? = nil) {
        self.medicationConceptIdentifier = medicationConceptIdentifier
        self.scheduleType = scheduleType
        self.logStatus = logStatus
        self.unit = unit
        self.doseQuantity = doseQuantity
        self.scheduledDoseQuantity = scheduledDoseQuantity
        self.scheduledDate = scheduledDate
    }

    /// `HKMedicationDoseEvent.ScheduleType`: asNeeded (1), schedule (2).
    public static let scheduleTypes: ClosedRange<Int> = 1...2
    public static let asNeeded = 1
    public static let scheduled = 2
    /// `HKMedicationDoseEvent.LogStatus`: notInteracted (1), notificationNotSent (2), snoozed (3),
    /// taken (4), skipped (5), notLogged (6).
    public static let logStatuses: ClosedRange<Int> = 1...6
    /// The log statuses' Swift names, by raw value − 1.
    public static let logStatusNames = ["notInteracted", "notificationNotSent", "snoozed", "taken", "skipped", "notLogged"]
}

/// `HKMedicationGeneralForm`'s values. Apple documents the constants
/// (`HKMedicationGeneralFormCapsule` …) but not the strings they hold; apps on iOS 26 observe the
/// lower-case form names ("tablet", "injection"), which are used here.
public enum MedicationGeneralForms {
    public static let all: [String] = [
        "capsule", "cream", "device", "drops", "foam", "gel", "inhaler", "injection", "liquid", "lotion",
        "ointment", "patch", "powder", "spray", "suppository", "tablet", "topical", "unknown",
    ]
    static let known = Set(all)
}
