public import Foundation

/// What a medication predicate tests (`HKQuery.predicateForUserAnnotatedMedications…` and
/// `HKQuery.predicateForMedicationDoseEvent…`, iOS 26). A test on medications matches no dose
/// event and the other way round.
public enum MedicationTest: Hashable, Sendable {
    /// `predicateForUserAnnotatedMedications(isArchived:)`.
    case isArchived(Bool)
    /// `predicateForUserAnnotatedMedications(hasSchedule:)`.
    case hasSchedule(Bool)
    /// `predicateForMedicationDoseEvent(status:)` / `(statuses:)`: log status raw values.
    case logStatuses(Set<Int>)
    /// `predicateForMedicationDoseEvent(scheduledDate:)` / `(scheduledDates:)`: exactly one of these.
    case scheduledDates(Set<Date>)
    /// `predicateForMedicationDoseEvent(scheduledStart:end:)`: start ≤ scheduledDate < end
    /// (either bound may be absent). As-needed doses have no scheduled date and never match.
    case scheduledRange(start: Date?, end: Date?)
    /// `predicateForMedicationDoseEvent(medicationConceptIdentifier:)` / `(…Identifiers:)`.
    case conceptIdentifiers(Set<String>)

    /// Most values one list test may hold: the store binds each list as one JSON text, and a
    /// user has tens of medications, not thousands.
    public static let maximumListCount = 1_000

    /// The reference semantics the store's SQL must agree with.
    public func matches(_ value: SampleRecord.Value) -> Bool {
        switch (self, value) {
        case let (.isArchived(flag), .userAnnotatedMedication(medication)): medication.isArchived == flag
        case let (.hasSchedule(flag), .userAnnotatedMedication(medication)): medication.hasSchedule == flag
        case let (.logStatuses(statuses), .medicationDoseEvent(dose)): statuses.contains(dose.logStatus)
        case let (.scheduledDates(dates), .medicationDoseEvent(dose)): dose.scheduledDate.map(dates.contains) ?? false
        case let (.scheduledRange(start, end), .medicationDoseEvent(dose)):
            dose.scheduledDate.map { date in start.map { date >= $0 } ?? true && end.map { date < $0 } ?? true } ?? false
        case let (.conceptIdentifiers(identifiers), .medicationDoseEvent(dose)): identifiers.contains(dose.medicationConceptIdentifier)
        default: false
        }
    }
}
