public import Foundation

/// HealthKit's Swift descriptor for `HKWorkoutEffortRelationshipQuery` (iOS 18):
/// `try await descriptor.result(for: store)` "Returns the changes made to the health store
/// matching the receiver. If the `anchor` property is non-nil, the result will be limited to
/// changes made since that anchor was previously returned" (Apple's documentation of
/// `result(for:)`): one answer, and the anchor to ask again from (`Result.newAnchor`, "may be
/// used in a subsequent query to request more changes"). As Apple's, it is also an
/// `HKAsyncSequenceQuery`: `for try await result in descriptor.results(for: store)` — the
/// long-running form (developer.apple.com/documentation/healthkit/hkasyncsequencequery lists
/// this descriptor among its conforming types; `results(for:)` "Initiates a query that returns
/// its results using an asynchronous sequence").
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
        /// "The relationships that have been added since `anchor`" (and those changed since).
        public let relationships: [HKWorkoutEffortRelationship]
        public let newAnchor: HKQueryAnchor
    }

    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let predicate = predicate
        return try await withCheckedThrowingContinuation { continuation in
            // One answer: the query is not long-running, so its handler runs once.
            let query = HKWorkoutEffortRelationshipQuery(predicate: predicate, anchor: anchor, options: option,
                                                         longRunning: false) { _, relationships, anchor, error in
                if let relationships, let anchor {
                    continuation.resume(returning: Result(relationships: relationships, newAnchor: anchor))
                } else {
                    continuation.resume(throwing: error ?? HKError(.errorInvalidArgument, "the query returned neither results nor an error"))
                }
            }
            healthStore.execute(query)
        }
    }

    /// The relationships changed since `anchor` (all of them for nil) as the first element, then
    /// one element per later change the app can see, each with the anchor to resume from — the
    /// long-running `HKWorkoutEffortRelationshipQuery`'s callbacks as a sequence, on the same
    /// long-running stream of healthd's. Ending the iteration (or cancelling its task) stops the
    /// query on healthd; an error (a bad predicate or anchor, a locked store) ends the sequence
    /// by throwing it.
    public func results(for healthStore: HKHealthStore) -> Results {
        let (stream, continuation) = AsyncThrowingStream<Result, any Error>.makeStream()
        let request = Swift.Result { () throws(HKError) in
            try HKWorkoutEffortRelationshipQuery.request(predicate: predicate, anchor: anchor, options: option, longRunning: true)
        }
        let task = Task {
            do throws(HKError) {
                try await healthStore.connection.workoutEffortDeliveries(try request.get()) { delivery in
                    continuation.yield(Result(relationships: delivery.relationships, newAnchor: delivery.anchor))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return Results(stream: stream)
    }

    /// Apple's `HKWorkoutEffortRelationshipQueryDescriptor.Results`: an `AsyncSequence` of `Result`.
    public typealias Results = QueryResultSequence<Result>
}
