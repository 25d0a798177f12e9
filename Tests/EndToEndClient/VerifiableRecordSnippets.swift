import Foundation
import HealthKit

/// Apple's example for `HKVerifiableClinicalRecordQuery`
/// (developer.apple.com/documentation/healthkit/hkverifiableclinicalrecordquery): "requests cards
/// that represent immunizations within the last six months" — as written there, with the
/// `fatalError` of its date arithmetic replaced by a thrown error. Prints what it receives
/// (`printVerifiableRecords`).
func verifiableRecordQuerySnippet(_ healthStore: HKHealthStore) async throws {
    // Calculate the start and end dates.
    var sixMonthsAgo = DateComponents()
    sixMonthsAgo.month = -6

    let end = Date()
    guard let start = Calendar.current.date(byAdding: sixMonthsAgo, to: end) else {
        throw HKError(.errorInvalidArgument, "*** Unable to calculate a date using \(end) and \(sixMonthsAgo) ***")
    }

    // Create the predicate.
    let lastSixMonthsPredicate = HKQuery.predicateForVerifiableClinicalRecords(withRelevantDateWithin: DateInterval(start: start, end: end))

    let records: [HKVerifiableClinicalRecord] = try await withCheckedThrowingContinuation { continuation in
        // Create the query.
        let vaccineQuery = HKVerifiableClinicalRecordQuery(recordTypes: ["https://smarthealth.cards#immunization"],
                                                           sourceTypes: [.smartHealthCard],
                                                           predicate: lastSixMonthsPredicate) { query, samples, error in
            // Handle the results here.
            if let samples {
                continuation.resume(returning: samples)
            } else {
                continuation.resume(throwing: error ?? HKError(.unknownError, "no records and no error"))
            }
        }
        healthStore.execute(vaccineQuery)
    }
    printVerifiableRecords(records)
}

/// Apple's `HKVerifiableClinicalRecordQueryDescriptor` example
/// (developer.apple.com/documentation/healthkit/hkverifiableclinicalrecordquerydescriptor), without
/// its predicate: every immunization card the user shares.
func verifiableRecordDescriptorSnippet(_ healthStore: HKHealthStore) async throws {
    let healthRecordDescriptor = HKVerifiableClinicalRecordQueryDescriptor(recordTypes: ["https://smarthealth.cards#immunization"],
                                                                           sourceTypes: [.smartHealthCard])
    let results = try await healthRecordDescriptor.result(for: healthStore)
    printVerifiableRecords(results)
}

/// Every field an app reads of each record but its UUID (drawn at import, so two stores differ
/// there), then `ok COUNT`: a twin-world test compares these lines byte for byte.
func printVerifiableRecords(_ records: [HKVerifiableClinicalRecord]) {
    for record in records {
        let birth = record.subject.dateOfBirthComponents.map { "\($0.year ?? 0)-\($0.month ?? 0)-\($0.day ?? 0)" } ?? "none"
        let fields: [String] = [
            "record", record.subject.fullName.replacingOccurrences(of: " ", with: "_"), birth,
            record.recordTypes.joined(separator: ","), record.credentialTypes.map(\.rawValue).joined(separator: ","),
            record.sourceType?.rawValue ?? "none", record.issuerIdentifier,
            "\(Int(record.issuedDate.timeIntervalSince1970))", "\(Int(record.relevantDate.timeIntervalSince1970))",
            record.expirationDate.map { "\(Int($0.timeIntervalSince1970))" } ?? "none",
            record.itemNames.joined(separator: "|").replacingOccurrences(of: " ", with: "_"),
            "\(record.dataRepresentation.count)", record.dataRepresentation.base64EncodedString(),
            "\(record.startDate == record.relevantDate)", "\(type(of: record))",
        ]
        print(fields.joined(separator: " "))
    }
    print("ok \(records.count)")
}
