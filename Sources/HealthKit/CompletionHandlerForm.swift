/// Runs an async method for its completion-handler spelling (`save(_:withCompletion:)`,
/// `beginCollection(withStart:completion:)` …): `(true, nil)` once `work` returns, `(false, error)`
/// if it throws, called from a task as Apple calls handlers off the caller's queue. One copy for
/// every `(Bool, Error?)` form of the SDK.
func complete(_ completion: @escaping @Sendable (Bool, (any Error)?) -> Void,
              _ work: @escaping @Sendable () async throws -> Void) {
    Task {
        do {
            try await work()
            completion(true, nil)
        } catch {
            completion(false, error)
        }
    }
}
