import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Pending per-object read requests (`requestPerObjectReadAuthorization`, vision prescriptions):
/// each waits here until the user picks, in the manager, which of its candidate objects the app
/// may read. Like `PromptCenter` (a separate actor so the type-wide prompts' wire shape stays as
/// it is): the app's call is withdrawn when it is cancelled, and an app may have at most
/// `maxPendingPerApp` requests waiting. HealthKit always asks, whatever was granted before.
///
/// Each request remembers the installation that asked (`AppInstallation`): the answer is stored
/// for that installation only (`ObjectGrantRepository.decide`), and removing the app withdraws
/// its requests (`withdrawAll`).
///
/// A document query's offer (`offer`, CDA per-document consent) is a request no call waits on:
/// one per app and type at most, refreshed by the app's next document query, answered like any other.
actor PerObjectPromptCenter {
    private struct Pending {
        let prompt: PerObjectPrompt
        let installation: AppInstallation
        /// The app's waiting call; nil for a document offer.
        let continuation: CheckedContinuation<Void, any Error>?
    }

    private var pending: [UInt64: Pending] = [:]
    private var nextID: UInt64 = 1
    private let maxPendingPerApp: Int
    /// Apps whose document offer is being worked out: one at a time per app (`beginOffer`).
    private var offering: Set<String> = []

    init(maxPendingPerApp: Int) {
        self.maxPendingPerApp = maxPendingPerApp
    }

    var prompts: [PerObjectPrompt] {
        pending.values.map(\.prompt).sorted { $0.requestID < $1.requestID }
    }

    /// Waits until `resolve` is called for the request, or throws CancellationError when the
    /// app's call is cancelled (which withdraws it).
    func ask(app: AppManifest, installation: AppInstallation, typeIdentifier: String, candidates: [SampleRecord]) async throws {
        if let refusal = refusalAtLimit(app: app.id) { throw refusal }
        let id = nextID
        nextID += 1
        let prompt = PerObjectPrompt(requestID: id, appID: app.id, appDisplayName: app.displayName,
                                     readUsageDescription: app.readUsageDescription ?? "", typeIdentifier: typeIdentifier,
                                     candidates: candidates)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pending[id] = Pending(prompt: prompt, installation: installation, continuation: continuation)
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    /// RESOURCE_EXHAUSTED if `app` already has its limit of requests waiting (document offers,
    /// which no call waits on and which are one per app and type, do not count), else nil.
    func refusalAtLimit(app: String) -> RPCStatus? {
        guard pending.values.count(where: { $0.prompt.appID == app && $0.continuation != nil }) >= maxPendingPerApp else { return nil }
        return BrokerLimits.exhausted("at most \(maxPendingPerApp) pending per-object read requests per app")
    }

    /// Files the app's offer of `candidates` (documents of `typeIdentifier` the user has not decided
    /// on), replacing one still pending for the same app and type (the newer query saw the newer
    /// documents), or withdrawing it when nothing is left to offer.
    func offer(app: AppManifest, installation: AppInstallation, typeIdentifier: String, candidates: [SampleRecord]) {
        let existing = pending.first { entry in
            entry.value.continuation == nil && entry.value.prompt.appID == app.id && entry.value.prompt.typeIdentifier == typeIdentifier
        }?.key
        guard !candidates.isEmpty else {
            if let existing { pending.removeValue(forKey: existing) }
            return
        }
        let id = existing ?? nextID
        if existing == nil { nextID += 1 }
        let prompt = PerObjectPrompt(requestID: id, appID: app.id, appDisplayName: app.displayName,
                                     readUsageDescription: app.readUsageDescription ?? "", typeIdentifier: typeIdentifier,
                                     candidates: candidates)
        pending[id] = Pending(prompt: prompt, installation: installation, continuation: nil)
    }

    /// Whether the caller may work out `appID`'s document offer now: false while another is under
    /// way for it, so an app repeating document queries costs healthd one offer at a time.
    func beginOffer(appID: String) -> Bool { offering.insert(appID).inserted }

    func endOffer(appID: String) { offering.remove(appID) }

    /// A pending request and the installation that made it.
    func request(_ id: UInt64) -> (prompt: PerObjectPrompt, installation: AppInstallation)? {
        pending[id].map { ($0.prompt, $0.installation) }
    }

    /// Resolves a request; the caller has stored the decisions.
    func resolve(_ id: UInt64) -> Bool {
        guard let entry = pending.removeValue(forKey: id) else { return false }
        entry.continuation?.resume()
        return true
    }

    private func withdraw(_ id: UInt64) {
        pending.removeValue(forKey: id)?.continuation?.resume(throwing: CancellationError())
    }

    /// The app was removed: its requests are withdrawn (none can be answered for a later
    /// installation under the same id), and any call still waiting on one is told why.
    /// Returns how many were withdrawn.
    @discardableResult
    func withdrawAll(appID: String) -> Int {
        let ids = pending.filter { $0.value.prompt.appID == appID }.map(\.key)
        for id in ids {
            pending.removeValue(forKey: id)?.continuation?.resume(
                throwing: HKError(.errorAuthorizationDenied, "the app was removed while its per-object read request waited"))
        }
        return ids.count
    }
}
