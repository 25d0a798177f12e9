public import Foundation

/// HealthKit's `HKVerifiableClinicalRecordQueryDescriptor` (iOS 15.4): Apple's "query interface
/// that provides one-time access to a SMART Health Card or EU Digital COVID Certificate using
/// Swift concurrency". `result(for:)` runs an `HKVerifiableClinicalRecordQuery` with the store's
/// `execute(_:)` and returns the records the user shared; cancelling the task stops the query.
///
/// `@unchecked Sendable`: `NSPredicate` is not marked Sendable; the one held is never mutated.
public struct HKVerifiableClinicalRecordQueryDescriptor: @unchecked Sendable {
    public var recordTypes: [String]
    public var sourceTypes: [HKVerifiableClinicalRecordSourceType]
    public var predicate: NSPredicate?

    public init(recordTypes: [String], sourceTypes: [HKVerifiableClinicalRecordSourceType], predicate: NSPredicate? = nil) {
        self.recordTypes = recordTypes
        self.sourceTypes = sourceTypes
        self.predicate = predicate
    }

    public func result(for healthStore: HKHealthStore) async throws -> [HKVerifiableClinicalRecord] {
        let (recordTypes, sourceTypes, predicate) = (recordTypes, sourceTypes, UncheckedPredicate(predicate))
        return try await OneAnswerQueryRun.result(on: healthStore, missing: "records") { answer in
            HKVerifiableClinicalRecordQuery(recordTypes: recordTypes, sourceTypes: sourceTypes,
                                            predicate: predicate.value) { _, records, error in answer(records, error) }
        }
    }
}

/// The predicate, carried into the continuation's closure (never mutated).
private struct UncheckedPredicate: @unchecked Sendable {
    let value: NSPredicate?
    init(_ value: NSPredicate?) { self.value = value }
}
