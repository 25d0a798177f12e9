import Foundation
import HealthWire

/// HealthKit's async anchored query: `try await descriptor.result(for: store)` for the changes
/// since `anchor`, or `for try await result in descriptor.results(for: store)` for those and then
/// every later change, as they happen, until the loop ends.
///
/// With several predicates — one per type, as Apple documents ("to query for multiple types of
/// data, provide a sample predicate for each type") — healthd reads the types as one feed in
/// change order under one anchor, each type under the app's own read permission for it, and
/// `limit` counts across them. developer.apple.com/documentation/healthkit/
/// hkanchoredobjectquerydescriptor/init(predicates:anchor:limit:)
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: Sendable {
    public struct Result: Sendable {
        public let addedSamples: [Sample]
        public let deletedObjects: [HKDeletedObject]
        public let newAnchor: HKQueryAnchor
    }

    public let predicates: [HKSamplePredicate<Sample>]
    public let anchor: HKQueryAnchor?
    public let limit: Int?

    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// The changes since `anchor` (at most `limit`); cancelling the task stops the query.
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let collected = Collected<Result>()
        try await healthStore.connection.anchoredDeliveries(try spec(longRunning: false)) { delivery in
            collected.value = try? Self.result(delivery)
        }
        guard let result = collected.value else {
            throw HKError(.unknownError, "healthd ended the anchored query without results, or sent samples of another type")
        }
        return result
    }

    /// The changes since `anchor`, then each later change as it happens. Ending the iteration
    /// (or cancelling its task) stops the query on healthd.
    public func results(for healthStore: HKHealthStore) -> Results {
        let (stream, continuation) = AsyncThrowingStream<Result, any Error>.makeStream()
        let request = Swift.Result { () throws(HKError) in try spec(longRunning: true) }
        let task = Task {
            do throws(HKError) {
                try await healthStore.connection.anchoredDeliveries(try request.get()) { delivery in
                    do {
                        continuation.yield(try Self.result(delivery))
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return Results(stream: stream)
    }

    public typealias Results = QueryResultSequence<Result>

    func spec(longRunning: Bool) throws(HKError) -> AnchoredQuerySpec {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative, got \(limit)") }
        return try HKAnchoredObjectQuery.spec(descriptors: predicates.map { ($0.sampleType, $0.nsPredicate) }, anchor: anchor,
                                              limit: limit ?? HKObjectQueryNoLimit, longRunning: longRunning)
    }

    private static func result(_ delivery: AnchoredDelivery) throws(HKError) -> Result {
        let typed = delivery.samples.compactMap { $0 as? Sample }
        guard typed.count == delivery.samples.count else {
            throw HKError(.unknownError, "healthd answered an anchored query with samples of another class than \(Sample.self)")
        }
        return Result(addedSamples: typed, deletedObjects: delivery.deletedObjects, newAnchor: delivery.anchor)
    }
}

/// A value set by a delivery callback and read once the query returned.
private final class Collected<Value: Sendable>: @unchecked Sendable {
    // @unchecked: written by the delivery callback, which runs before the query call returns;
    // read only after that.
    var value: Value?
}
