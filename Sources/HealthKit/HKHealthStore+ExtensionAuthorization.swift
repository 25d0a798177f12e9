extension HKHealthStore {
    /// Apple (iOS 9): the host app calls this when an extension (a watch app, say) asked for
    /// permission, so that the prompt appears in the host; `success` means the user responded,
    /// not that access was granted. Here every app's request is shown by the user's manager
    /// (`healthctl`) whichever process made it, and the requesting process waits for the answer
    /// itself, so the host has nothing to present: this completes with `(true, nil)` at once
    /// (README, "Differences from Apple's HealthKit").
    func brokerHandleAuthorizationForExtension() async throws {}

    func brokerHandleAuthorizationForExtension(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.handleAuthorizationForExtension() }
    }
}
