import Foundation
import HealthKit

// Snippets for medications (iOS 26), written as Apple shows them (WWDC25 "Meet the HealthKit
// Medications API", developer.apple.com/videos/play/wwdc2025/321, and the pages of
// HKUserAnnotatedMedicationQueryDescriptor, HKQuery.predicateForMedicationDoseEvent(…) and
// HKObjectType.userAnnotatedMedicationType()). Only the `print` lines are the test's.

/// Asks the user which medications this app may read (per-object authorization,
/// developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:)),
/// then prints what it sees (`medicationsVisibleSnippet`).
func medicationsPerObjectSnippet(_ healthStore: HKHealthStore) async throws {
    try await healthStore.requestPerObjectReadAuthorization(for: HKObjectType.userAnnotatedMedicationType(), predicate: nil)
    try await medicationsVisibleSnippet(healthStore)
}

/// The medications the app may read, each with its most recent dose event found by its concept
/// identifier (predicateForMedicationDoseEvent(medicationConceptIdentifier:)), then every dose
/// event the app may read and the taken ones. Prints
/// `ok COUNT NAME|FORM|ARCHIVED|SCHEDULE|RXNORM|LATEST-STATUS,… doses N taken N`.
func medicationsVisibleSnippet(_ healthStore: HKHealthStore) async throws {
    let queryDescriptor = HKUserAnnotatedMedicationQueryDescriptor()
    let medications = try await queryDescriptor.result(for: healthStore)
    var described: [String] = []
    for medication in medications {
        let predicate = HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: medication.medication.identifier)
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.sample(type: HKObjectType.medicationDoseEventType(), predicate: predicate)],
            sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
            limit: 1)
        let latest = try await descriptor.result(for: healthStore).first as? HKMedicationDoseEvent
        let rxnorm = medication.medication.relatedCodings.first { $0.system == "http://www.nlm.nih.gov/research/umls/rxnorm" }?.code ?? "-"
        let name = medication.nickname ?? medication.medication.displayText
        described.append([name, medication.medication.generalForm.rawValue, "\(medication.isArchived)", "\(medication.hasSchedule)",
                          rxnorm, latest.map { "\($0.logStatus)" } ?? "none"].joined(separator: "|"))
    }
    let all = try await HKSampleQueryDescriptor(predicates: [.sample(type: HKObjectType.medicationDoseEventType())],
                                                sortDescriptors: []).result(for: healthStore)
    let taken = try await HKSampleQueryDescriptor(
        predicates: [.sample(type: HKObjectType.medicationDoseEventType(), predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken))],
        sortDescriptors: []).result(for: healthStore)
    print("ok \(medications.count) \(described.sorted().joined(separator: ",")) doses \(all.count) taken \(taken.count)")
}

/// A scheduled dose as HKMedicationDoseEvent exposes it: prints
/// `ok SCHEDULE STATUS DOSE SCHEDULED-DOSE UNIT HAS-SCHEDULED-DATE SAME-CONCEPT` for the first
/// scheduled dose event the app may read (predicateForMedicationDoseEvent(scheduledStart:end:)).
func medicationScheduledDoseSnippet(_ healthStore: HKHealthStore) async throws {
    let predicate = HKQuery.predicateForMedicationDoseEvent(scheduledStart: Date(timeIntervalSince1970: 0), end: nil)
    let doses = try await HKSampleQueryDescriptor(predicates: [.sample(type: HKObjectType.medicationDoseEventType(), predicate: predicate)],
                                                  sortDescriptors: []).result(for: healthStore)
    let medications = try await HKUserAnnotatedMedicationQueryDescriptor(predicate: HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true),
                                                                        limit: 1).result(for: healthStore)
    guard let dose = doses.first as? HKMedicationDoseEvent, let medication = medications.first else {
        print("ok none \(doses.count) \(medications.count)")
        return
    }
    print("ok \(dose.scheduleType) \(dose.logStatus) \(dose.doseQuantity.map { "\($0)" } ?? "nil") "
          + "\(dose.scheduledDoseQuantity.map { "\($0)" } ?? "nil") \(dose.unit.unitString) \(dose.scheduledDate != nil) "
          + "\(dose.medicationConceptIdentifier == medication.medication.identifier)")
}

/// Read-only for apps: asking to share either type, or to read them type-wide, fails before any
/// prompt with errorInvalidArgument (HealthKit raises NSInvalidArgumentException "Authorization
/// to share the following types is disallowed"). Prints `ok CODE:CODE:CODE`.
func medicationsRefusedSnippet(_ healthStore: HKHealthStore) async throws {
    var codes: [String] = []
    let attempts: [(Set<HKSampleType>, Set<HKObjectType>)] = [
        ([HKObjectType.medicationDoseEventType()], []),
        ([], [HKObjectType.userAnnotatedMedicationType()]),
        ([], [HKObjectType.medicationDoseEventType()]),
    ]
    for (share, read) in attempts {
        do {
            try await healthStore.requestAuthorization(toShare: share, read: read)
            codes.append("granted")
        } catch let error as HKError {
            codes.append("\(error.code.rawValue)")
        }
    }
    print("ok \(codes.joined(separator: ":"))")
}
