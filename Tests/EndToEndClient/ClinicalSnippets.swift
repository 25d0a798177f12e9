import Foundation
import HealthKit

// Snippets for clinical records, written as Apple's pages show them (see AppleSnippets.swift).
// Only the `print` lines are the test's.

/// developer.apple.com/documentation/healthkit/accessing-a-user-s-clinical-records: "Define the
/// clinical record sample types to request" and request them for reading only
/// (`toShare: nil`), with the completion handler form the sample code uses.
func clinicalRequestSnippet(_ healthStore: HKHealthStore) async throws {
    guard let allergyType = HKObjectType.clinicalType(forIdentifier: .allergyRecord),
          let labResultType = HKObjectType.clinicalType(forIdentifier: .labResultRecord) else {
        usage("the clinical types are missing")
    }
    let typesToRead: Set<HKObjectType> = [allergyType, labResultType]
    let error: (any Error)? = await withCheckedContinuation { continuation in
        healthStore.requestAuthorization(toShare: nil, read: typesToRead) { success, error in
            continuation.resume(returning: success ? nil : error)
        }
    }
    if let error { throw error }
    print("ok requested")
}

/// developer.apple.com/documentation/healthkit/hkhealthstore/requestauthorization(toshare:read:completion:)
/// with a clinical type to share: clinical records are read-only ("you can't request
/// authorization to share clinical types", developer.apple.com/documentation/healthkit/accessing-health-records).
func clinicalShareSnippet(_ healthStore: HKHealthStore) async throws {
    guard let allergyType = HKObjectType.clinicalType(forIdentifier: .allergyRecord) else { usage("no allergy type") }
    try await healthStore.requestAuthorization(toShare: [allergyType], read: [allergyType])
    print("ok requested")
}

/// The sample code's query (HKSampleQuery over allergyRecord, results as [HKClinicalRecord],
/// the FHIR JSON parsed with JSONSerialization), then the two clinical predicates:
/// …/hkquery/predicateforclinicalrecords(withfhirresourcetype:) through an
/// `HKSampleQueryDescriptor` with `.clinicalRecord(type:predicate:)`, and
/// …/hkquery/predicateforclinicalrecords(from:fhirresourcetype:identifier:) with the first
/// allergy's source. Prints: allergies, lab observations, lab diagnostic reports, records found by
/// source+type+id, the first allergy's display name, resource type, FHIR release, whether its
/// JSON's id is the resource's identifier, and whether the clinical type is the queried one.
func clinicalRecordsSnippet(_ healthStore: HKHealthStore) async throws {
    guard let allergyType = HKObjectType.clinicalType(forIdentifier: .allergyRecord),
          let labResultType = HKObjectType.clinicalType(forIdentifier: .labResultRecord) else {
        usage("the clinical types are missing")
    }
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: allergyType, predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        }
        healthStore.execute(query)
    }
    let allergies = samples as? [HKClinicalRecord] ?? []
    let observations = try await HKSampleQueryDescriptor(
        predicates: [.clinicalRecord(type: labResultType,
                                     predicate: HKQuery.predicateForClinicalRecords(withFHIRResourceType: .observation))],
        sortDescriptors: []).result(for: healthStore)
    let reports = try await HKSampleQueryDescriptor(
        predicates: [.clinicalRecord(type: labResultType,
                                     predicate: HKQuery.predicateForClinicalRecords(withFHIRResourceType: .diagnosticReport))],
        sortDescriptors: []).result(for: healthStore)
    guard let first = allergies.first, let resource = first.fhirResource else {
        print("ok \(allergies.count) \(observations.count) \(reports.count) 0 none")
        return
    }
    let byIdentifier = try await HKSampleQueryDescriptor(
        predicates: [.clinicalRecord(type: allergyType, predicate: HKQuery.predicateForClinicalRecords(
            from: first.sourceRevision.source, fhirResourceType: resource.resourceType, identifier: resource.identifier))],
        sortDescriptors: []).result(for: healthStore)
    let json = try JSONSerialization.jsonObject(with: resource.data, options: []) as? [String: Any]
    let idMatches = (json?["id"] as? String) == resource.identifier
    print("ok \(allergies.count) \(observations.count) \(reports.count) \(byIdentifier.count) \(first.displayName)"
          + " | \(resource.resourceType.rawValue) \(resource.fhirVersion.fhirRelease.rawValue) \(idMatches)"
          + " \(first.clinicalType == allergyType)")
}

/// …/hkhealthstore/save(_:withcompletion:) with a clinical record the app read: HealthKit lets
/// no app write clinical records, so the save fails. Prints the HKError code and whether the
/// message names the type.
func clinicalResaveSnippet(_ healthStore: HKHealthStore) async throws {
    guard let allergyType = HKObjectType.clinicalType(forIdentifier: .allergyRecord) else { usage("no allergy type") }
    let records = try await HKSampleQueryDescriptor(predicates: [.clinicalRecord(type: allergyType)], sortDescriptors: [])
        .result(for: healthStore)
    guard let record = records.first else { usage("no allergy record to save again") }
    let error: (any Error)? = await withCheckedContinuation { continuation in
        healthStore.save(record) { success, error in continuation.resume(returning: success ? nil : error) }
    }
    guard let error = error as? HKError else { usage("a clinical record was saved by an app") }
    print("ok \(error.code.rawValue) \(error.message.contains(allergyType.identifier))")
}
