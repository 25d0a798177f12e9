import HealthWire

/// `requests --wait`: blocks on healthd's request watch until a matching prompt is pending.
enum PromptWaiter {
    /// Returns once a prompt satisfying `isWanted` is pending (already, or newly arrived), or
    /// throws `.timedOut` after `timeout` seconds. Leaving the watch cancels it on the broker.
    static func waitForPrompt(
        from client: ManagerClient, timeout: Double?, describing wanted: String,
        where isWanted: @escaping @Sendable (AuthorizationPrompt) -> Bool
    ) async throws(HealthCtlError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await prompt in client.watchRequests() where isWanted(prompt) { return }
                    throw HealthCtlError.brokerFailed(
                        action: "watch for requests", status: .init(.unavailable, "healthd ended the watch"))
                }
                if let timeout {
                    group.addTask {
                        try await Task.sleep(for: .seconds(timeout))
                        throw HealthCtlError.timedOut(waitingFor: wanted, seconds: timeout)
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch let error as HealthCtlError {
            throw error
        } catch {
            throw ManagerClient.failure(error, action: "watch for requests")
        }
    }
}
