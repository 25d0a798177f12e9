public import Foundation
import HealthModel

/// HealthKit's `HKMedicationDoseEvent` (iOS 26): one logged dose of a medication — taken,
/// skipped, snoozed or not interacted with — an `HKSample` read with sample, anchored and
/// observer queries on `HKObjectType.medicationDoseEventType()`. An app reads the dose events of
/// the medications the user granted it; it cannot create or save one (Apple's `init` is
/// unavailable; healthd refuses a hand-made save, `AppWritability`).
public final class HKMedicationDoseEvent: HKSample, @unchecked Sendable {
    /// `HKMedicationDoseEvent.LogStatus` (HKMedicationDoseEvent.h raw values).
    public enum LogStatus: Int, Sendable, CaseIterable {
        case notInteracted = 1, notificationNotSent, snoozed, taken, skipped, notLogged
    }

    /// `HKMedicationDoseEvent.ScheduleType`.
    public enum ScheduleType: Int, Sendable, CaseIterable {
        case asNeeded = 1, schedule
    }

    public let scheduleType: ScheduleType
    public let medicationConceptIdentifier: HKHealthConceptIdentifier
    /// Set for scheduled doses, nil for as-needed ones.
    public let scheduledDate: Date?
    /// Set for scheduled doses, nil for as-needed ones.
    public let scheduledDoseQuantity: Double?
    public let doseQuantity: Double?
    public let logStatus: LogStatus
    public let unit: HKUnit

    public var medicationDoseEventType: HKMedicationDoseEventType { HKObjectType.medicationDoseEventType() }

    init(type: HKMedicationDoseEventType, fetched record: SampleRecord, _ value: MedicationDoseEventValue,
         parts: FetchedObjectParts) throws(HKError) {
        guard let scheduleType = ScheduleType(rawValue: value.scheduleType), let logStatus = LogStatus(rawValue: value.logStatus) else {
            throw HKError(.unknownError, "healthd sent a dose event schedule type or log status this SDK does not know; "
                          + "the SDK and healthd versions may not match")
        }
        let unit: HKUnit
        do {
            unit = try HKUnit.parse(value.unit)
        } catch {
            throw HKError(.unknownError, "healthd sent a dose event unit this SDK cannot read")
        }
        self.scheduleType = scheduleType
        self.logStatus = logStatus
        self.unit = unit
        medicationConceptIdentifier = HKHealthConceptIdentifier(underlyingIdentifier: value.medicationConceptIdentifier)
        scheduledDate = value.scheduledDate
        scheduledDoseQuantity = value.scheduledDoseQuantity
        doseQuantity = value.doseQuantity
        super.init(type: type, fetched: record, parts: parts)
    }

    /// Reads an archive (`ArchivedSample`).
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKMedicationDoseEventType,
              case let .medicationDoseEvent(value) = archived.record.value else { return nil }
        do {
            try self.init(type: type, fetched: archived.record, value, parts: archived.parts)
        } catch {
            return nil
        }
    }
}

/// The key path constants for predicates on dose events (HKMedicationDoseEvent.h).
public let HKPredicateKeyPathStatus = "status"
public let HKPredicateKeyPathLogOrigin = "logOrigin"
public let HKPredicateKeyPathScheduledDate = "scheduledDate"
public let HKPredicateKeyPathMedicationConceptIdentifier = "medicationConceptIdentifier"
