import HealthWire
import Synchronization

extension HKStatisticsCollectionQueryDescriptor {
    /// One element of `results(for:)`: the whole collection as it is now, and which of its
    /// intervals changed (nil for the first element, as in HealthKit).
    public struct Result: Sendable {
        public let statisticsCollection: HKStatisticsCollection
        /// The intervals that changed since the previous element, in time order; an interval that
        /// lost all its data is here with nil quantities.
        public let updatedStatistics: [HKStatistics]?
    }

    /// The collection, then the updated collection after each change the app may read. Ending
    /// the iteration (or cancelling its task) stops the query on healthd.
    public func results(for healthStore: HKHealthStore) -> Results {
        let (stream, continuation) = AsyncThrowingStream<Result, any Error>.makeStream()
        let connection = healthStore.connection
        let request = Swift.Result { () throws(HKError) in
            let query = try makeQuery()
            return (query, try query.spec.get())
        }
        let task = Task {
            do throws(HKError) {
                let (query, spec) = try request.get()
                let delivered = Delivered()
                try await connection.statisticsCollectionUpdates(spec) { update in
                    let updated = delivered.markDelivered() ? update.updated.map {
                        HKStatistics(type: query.quantityType, result: $0, separateBySource: query.options.contains(.separateBySource))
                    } : nil
                    continuation.yield(Result(statisticsCollection: query.collection(of: update.intervals, interval: spec.interval),
                                              updatedStatistics: updated))
                }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return Results(stream: stream)
    }

    public typealias Results = QueryResultSequence<Result>
}

/// Whether a stream has delivered before; the first call of `markDelivered` returns false.
private final class Delivered: Sendable {
    private let state = Mutex(false)

    func markDelivered() -> Bool {
        state.withLock { delivered in
            defer { delivered = true }
            return delivered
        }
    }
}
