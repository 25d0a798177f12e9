extension HKHealthStore {
    /// Runs `query` on this store's connection; its handler is called on a background task.
    /// A query runs once: executing it again calls the handler with `errorInvalidArgument`.
    public func execute(_ query: HKQuery) {
        query.start(on: connection)
    }

    /// Stops a running query: the broker is told to stop, and the handler (if it has not been
    /// called yet) gets `errorUserCanceled` — HealthKit does not specify what a stopped sample
    /// query reports; a cancellation error lets the app tell it apart from an empty result.
    public func stop(_ query: HKQuery) {
        query.lifecycle.stop()
    }
}
