import Synchronization

/// HealthKit's async source query (iOS 15.4): `try await HKSourceQueryDescriptor(predicate:
/// .workout()).result(for: store)` lists the apps that saved matching samples the app may read
/// (as `HKSourceQuery`: without read permission, only the app itself when it saved some).
public struct HKSourceQueryDescriptor<Sample: HKSample>: Sendable {
    public let predicate: HKSamplePredicate<Sample>

    public init(predicate: HKSamplePredicate<Sample>) {
        self.predicate = predicate
    }

    /// As Apple documents it, this creates an `HKSourceQuery` and runs it with the store's
    /// `execute(_:)` — so a subclass of `HKHealthStore` that overrides `execute` answers it too.
    /// Cancelling the calling task stops the query (`stop(_:)`) and throws its cancellation
    /// error. Apple leaves the order open; here sources come sorted by name, then bundle
    /// identifier, so the same store gives the same array.
    public func result(for healthStore: HKHealthStore) async throws -> [HKSource] {
        let sampleType = predicate.sampleType
        let nsPredicate = predicate.nsPredicate
        // Built on first use inside the continuation, stopped from the cancellation handler.
        let box = QueryBox()
        let sources: Set<HKSource> = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let query = HKSourceQuery(sampleType: sampleType, samplePredicate: nsPredicate) { _, sources, error in
                    if let sources {
                        continuation.resume(returning: sources)
                    } else {
                        continuation.resume(throwing: error ?? HKError(.unknownError, "the source query ended without sources or an error"))
                    }
                }
                box.set(query)
                healthStore.execute(query)
                // Cancelled before the query existed: stop it now (the handler above saw nothing).
                if Task.isCancelled { healthStore.stop(query) }
            }
        } onCancel: {
            if let query = box.query { healthStore.stop(query) }
        }
        return sources.sorted { ($0.name, $0.bundleIdentifier) < ($1.name, $1.bundleIdentifier) }
    }
}

/// The running query, handed from the operation to the cancellation handler (which may run on
/// another thread at the same time).
private final class QueryBox: Sendable {
    private let stored = Mutex<HKSourceQuery?>(nil)
    var query: HKSourceQuery? { stored.withLock { $0 } }
    func set(_ query: HKSourceQuery) { stored.withLock { $0 = query } }
}
