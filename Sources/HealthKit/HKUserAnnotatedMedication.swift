public import Foundation
import HealthModel

/// HealthKit's `HKUserAnnotatedMedication` (iOS 26): a medication the user tracks, with what
/// they customized (nickname, archived, schedule). The user enters it in the manager
/// (`healthctl medications add`); apps read the ones the user granted them
/// (`requestPerObjectReadAuthorization(for: .userAnnotatedMedicationType(), predicate:)`) with
/// `HKUserAnnotatedMedicationQuery` or its descriptor. Apps cannot create one (Apple's `init` is
/// unavailable).
public final class HKUserAnnotatedMedication: NSObject, NSCopying, @unchecked Sendable {
    public let nickname: String?
    public let isArchived: Bool
    public let hasSchedule: Bool
    public let medication: HKMedicationConcept

    init(_ value: UserAnnotatedMedicationValue) {
        nickname = value.nickname
        isArchived = value.isArchived
        hasSchedule = value.hasSchedule
        medication = HKMedicationConcept(value)
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// The key path constants for predicates on medications (Apple's
/// `HKUserAnnotatedMedicationPredicateKeyPathIsArchived` / `…HasSchedule`).
public let HKUserAnnotatedMedicationPredicateKeyPathIsArchived = "isArchived"
public let HKUserAnnotatedMedicationPredicateKeyPathHasSchedule = "hasSchedule"

/// The medication as the store keeps it: an object of `StoredUserAnnotatedMedicationType`, so
/// that per-object grants name it. Internal: `HKUserAnnotatedMedicationQuery` turns it into an
/// `HKUserAnnotatedMedication`, which is not an `HKSample` in HealthKit.
final class UserAnnotatedMedicationObject: HKSample, @unchecked Sendable {
    let value: UserAnnotatedMedicationValue

    init(type: StoredUserAnnotatedMedicationType, fetched record: SampleRecord, _ value: UserAnnotatedMedicationValue,
         parts: FetchedObjectParts) {
        self.value = value
        super.init(type: type, fetched: record, parts: parts)
    }

    required init?(coder: NSCoder) {
        return nil
    }
}
