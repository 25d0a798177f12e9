public import Foundation
import HealthModel

/// HealthKit's medication predicates (iOS 26). healthd evaluates them on what the app may read:
/// the medications the user granted it and their dose events. A medication predicate matches no
/// dose event and the other way round.
extension HKQuery {
    public static func predicateForUserAnnotatedMedications(isArchived: Bool) -> NSPredicate {
        SampleTreePredicate(.medication(.isArchived(isArchived)))
    }

    public static func predicateForUserAnnotatedMedications(hasSchedule: Bool) -> NSPredicate {
        SampleTreePredicate(.medication(.hasSchedule(hasSchedule)))
    }

    public static func predicateForMedicationDoseEvent(status: HKMedicationDoseEvent.LogStatus) -> NSPredicate {
        SampleTreePredicate(.medication(.logStatuses([status.rawValue])))
    }

    public static func predicateForMedicationDoseEvent(statuses: Set<HKMedicationDoseEvent.LogStatus>) -> NSPredicate {
        SampleTreePredicate(.medication(.logStatuses(Set(statuses.map(\.rawValue)))))
    }

    public static func predicateForMedicationDoseEvent(scheduledDate: Date) -> NSPredicate {
        SampleTreePredicate(.medication(.scheduledDates([scheduledDate])))
    }

    public static func predicateForMedicationDoseEvent(scheduledDates: Set<Date>) -> NSPredicate {
        SampleTreePredicate(.medication(.scheduledDates(scheduledDates)))
    }

    /// Dose events scheduled at or after `startDate` and before `endDate` (either may be nil).
    public static func predicateForMedicationDoseEvent(scheduledStart startDate: Date?, end endDate: Date?) -> NSPredicate {
        SampleTreePredicate(.medication(.scheduledRange(start: startDate, end: endDate)))
    }

    public static func predicateForMedicationDoseEvent(medicationConceptIdentifier: HKHealthConceptIdentifier) -> NSPredicate {
        SampleTreePredicate(.medication(.conceptIdentifiers([medicationConceptIdentifier.underlyingIdentifier])))
    }

    public static func predicateForMedicationDoseEvent(medicationConceptIdentifiers: Set<HKHealthConceptIdentifier>) -> NSPredicate {
        SampleTreePredicate(.medication(.conceptIdentifiers(Set(medicationConceptIdentifiers.map(\.underlyingIdentifier)))))
    }
}
