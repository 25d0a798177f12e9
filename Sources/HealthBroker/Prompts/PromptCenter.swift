import HealthModel
import HealthWire

/// Pending authorization prompts: an app's request waits here until the user answers it in
/// the manager (DESIGN.md §7.7). Watchers (healthctl requests --wait) are told of each new one.
actor PromptCenter {
    private struct Pending {
        let prompt: AuthorizationPrompt
        let continuation: CheckedContinuation<Void, any Error>
    }

    private var pending: [UInt64: Pending] = [:]
    private var nextID: UInt64 = 1
    private var watchers: [UInt64: AsyncStream<AuthorizationPrompt>.Continuation] = [:]
    private var nextWatcherID: UInt64 = 1
    private let maxPendingPerApp: Int

    init(maxPendingPerApp: Int) {
        self.maxPendingPerApp = maxPendingPerApp
    }

    var prompts: [AuthorizationPrompt] {
        pending.values.map(\.prompt).sorted { $0.requestID < $1.requestID }
    }

    /// Waits until `answer` resolves the prompt, or throws CancellationError if the app's call
    /// is cancelled (it disconnected or gave up), which withdraws the prompt. An app that already
    /// has `maxPendingPerApp` prompts waiting is refused (RESOURCE_EXHAUSTED): the user answers
    /// prompts one at a time, and a flood of them would bury every other app's.
    func ask(app: AppManifest, read: [String], share: [String]) async throws {
        if let refusal = refusalAtLimit(app: app.id) { throw refusal }
        let id = nextID
        nextID += 1
        let prompt = AuthorizationPrompt(
            requestID: id, appID: app.id, appDisplayName: app.displayName,
            readUsageDescription: app.readUsageDescription ?? "", shareUsageDescription: app.shareUsageDescription ?? "",
            readTypes: read, shareTypes: share)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pending[id] = Pending(prompt: prompt, continuation: continuation)
                for watcher in watchers.values { watcher.yield(prompt) }
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    /// RESOURCE_EXHAUSTED if `app` already has its limit of prompts waiting, else nil.
    func refusalAtLimit(app: String) -> RPCStatus? {
        guard pending.values.count(where: { $0.prompt.appID == app }) >= maxPendingPerApp else { return nil }
        return BrokerLimits.exhausted("at most \(maxPendingPerApp) pending permission prompts per app")
    }

    /// Resolves a prompt. The caller has already stored the decisions.
    func resolve(_ id: UInt64) -> Bool {
        guard let entry = pending.removeValue(forKey: id) else { return false }
        entry.continuation.resume()
        return true
    }

    func prompt(_ id: UInt64) -> AuthorizationPrompt? {
        pending[id]?.prompt
    }

    /// A stream of every prompt pending now and each new one.
    func watch() -> AsyncStream<AuthorizationPrompt> {
        let id = nextWatcherID
        nextWatcherID += 1
        let (stream, continuation) = AsyncStream<AuthorizationPrompt>.makeStream()
        for prompt in prompts { continuation.yield(prompt) }
        watchers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unwatch(id) } }
        return stream
    }

    private func unwatch(_ id: UInt64) {
        watchers[id] = nil
    }

    private func withdraw(_ id: UInt64) {
        pending.removeValue(forKey: id)?.continuation.resume(throwing: CancellationError())
    }
}
