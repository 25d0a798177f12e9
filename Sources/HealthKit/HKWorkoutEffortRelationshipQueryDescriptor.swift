public import Foundation

/// HealthKit's Swift descriptor for `HKWorkoutEffortRelationshipQuery` (iOS 18):
/// `try await descriptor.result(for: store)`. Answers as the query does (see its difference
/// from Apple's: one full answer, and an anchor that stands for "from the beginning").
public struct HKWorkoutEffortRelationshipQueryDescriptor: @unchecked Sendable {
    // @unchecked: an NSPredicate is not marked Sendable but is never mutated here (as HKQueryDescriptor).
    public var predicate: NSPredicate?
    public var anchor: HKQueryAnchor?
    public var option: HKWorkoutEffortRelationshipQueryOptions

    public init(predicate: NSPredicate?, anchor: HKQueryAnchor?, option: HKWorkoutEffortRelationshipQueryOptions) {
        self.predicate = predicate
        self.anchor = anchor
        self.option = option
    }

    public struct Result: Sendable {
        public let relationships: [HKWorkoutEffortRelationship]
        public let newAnchor: HKQueryAnchor
    }

    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let predicate = predicate
        return try await withCheckedThrowingContinuation { continuation in
            let query = HKWorkoutEffortRelationshipQuery(predicate: predicate, anchor: anchor, options: option) { _, relationships, anchor, error in
                if let relationships, let anchor {
                    continuation.resume(returning: Result(relationships: relationships, newAnchor: anchor))
                } else {
                    continuation.resume(throwing: error ?? HKError(.errorInvalidArgument, "the query returned neither results nor an error"))
                }
            }
            healthStore.execute(query)
        }
    }
}
