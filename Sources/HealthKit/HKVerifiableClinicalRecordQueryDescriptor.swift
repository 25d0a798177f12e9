public import Foundation
import Synchronization

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
        let box = VerifiableQueryBox()
        let (recordTypes, sourceTypes, predicate) = (recordTypes, sourceTypes, UncheckedPredicate(predicate))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let query = HKVerifiableClinicalRecordQuery(recordTypes: recordTypes, sourceTypes: sourceTypes,
                                                            predicate: predicate.value) { _, records, error in
                    if let records {
                        continuation.resume(returning: records)
                    } else {
                        continuation.resume(throwing: error ?? HKError(.unknownError, "the query ended without records or an error"))
                    }
                }
                box.set(query)
                healthStore.execute(query)
                if Task.isCancelled { healthStore.stop(query) }
            }
        } onCancel: {
            if let query = box.query { healthStore.stop(query) }
        }
    }
}

/// The predicate, carried into the continuation's closure (never mutated).
private struct UncheckedPredicate: @unchecked Sendable {
    let value: NSPredicate?
    init(_ value: NSPredicate?) { self.value = value }
}

private final class VerifiableQueryBox: Sendable {
    private let stored = Mutex<HKVerifiableClinicalRecordQuery?>(nil)
    var query: HKVerifiableClinicalRecordQuery? { stored.withLock { $0 } }
    func set(_ query: HKVerifiableClinicalRecordQuery) { stored.withLock { $0 = query } }
}
