extension HKHealthStore {
    /// Runs `query` on this store's connection; its handler is called on a background task.
    /// A query runs once: executing it again calls the handler with `errorInvalidArgument`.
    func brokerExecute(_ query: HKQuery) {
        query.start(on: connection)
    }

    /// Stops a running query: its call to the broker is cancelled (healthd stops the work). A
    /// query still waiting for its first answer gets `errorUserCanceled` in the handler for that
    /// answer — HealthKit does not specify what a stopped sample query reports; a cancellation
    /// error lets the app tell it apart from an empty result. After the first answer, and for an
    /// observer query at any time, stopping is quiet. Stopping a query that has not been executed
    /// does nothing.
    func brokerStop(_ query: HKQuery) {
        query.lifecycle.stop()
    }
}
