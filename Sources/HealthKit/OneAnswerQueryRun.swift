import Synchronization

/// How an async query descriptor runs a query that answers once through its result handler
/// (`HKSourceQueryDescriptor`, `HKVerifiableClinicalRecordQueryDescriptor`), as Apple documents
/// them: built and run with the store's `execute(_:)` — so a subclass overriding `execute`
/// answers it too — and stopped with `stop(_:)` when the calling task is cancelled, also when the
/// cancellation came before the query existed.
enum OneAnswerQueryRun {
    /// `make` builds the query, giving its result handler's value and error to `answer`; a
    /// handler that gives neither ends the call with `unknownError` saying `missing`.
    static func result<Query: HKQuery, Value: Sendable>(
        on healthStore: HKHealthStore, missing: String,
        _ make: (_ answer: @escaping @Sendable (Value?, (any Error)?) -> Void) -> Query
    ) async throws -> Value {
        let running = RunningQuery<Query>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let query = make { value, error in
                    if let value {
                        continuation.resume(returning: value)
                    } else {
                        continuation.resume(throwing: error ?? HKError(.unknownError, "the query ended without \(missing) or an error"))
                    }
                }
                running.set(query)
                healthStore.execute(query)
                // Cancelled before the query existed: stop it now (the handler below saw nothing).
                if Task.isCancelled { healthStore.stop(query) }
            }
        } onCancel: {
            if let query = running.query { healthStore.stop(query) }
        }
    }
}

/// The running query, handed from the operation to the cancellation handler (which may run on
/// another thread at the same time).
private final class RunningQuery<Query: HKQuery>: Sendable {
    private let stored = Mutex<Query?>(nil)
    var query: Query? { stored.withLock { $0 } }
    func set(_ query: Query) { stored.withLock { $0 = query } }
}
