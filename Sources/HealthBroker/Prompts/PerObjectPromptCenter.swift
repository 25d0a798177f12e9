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
/// A request holds what the app asked (type and predicate), not its candidates: those are read
/// when the user lists the requests (`PerObjectCandidates`), so nothing the app does makes healthd
/// read other apps' objects, and what an app's call costs is the same whatever the store holds and
/// whatever the app may read (DESIGN.md §7.2, §7.3). The listing remembers the candidates it
/// showed (`shown`, UUIDs only): the user's answer decides exactly those.
///
/// Each request remembers the installation that asked (`AppInstallation`): the answer is stored
/// for that installation only (`ObjectGrantRepository.decide`), and removing the app withdraws
/// its requests (`withdrawAll`).
///
/// A document query's offer (`offer`, CDA per-document consent) is a request no call waits on:
/// one per app and type at most, its predicate replaced by the app's next document query,
/// answered like any other.
///
/// A verifiable clinical record query (`HKVerifiableClinicalRecordQuery`) is a request whose call
/// waits for the records themselves: its candidates are the stored records its query matches
/// (`PerObjectCandidates`), and the answer hands the call the UUIDs the user picked, once; no
/// grant is stored (Apple: "one-time access").
actor PerObjectPromptCenter {
    /// What an app asked the user: the candidates are read from it when the user lists it.
    struct Request: Sendable {
        let id: UInt64
        let app: AppManifest
        let installation: AppInstallation
        let typeIdentifier: String
        let predicate: SamplePredicate?
        /// A document query's offer (no call waits on it), rather than a per-object request.
        let isOffer: Bool
        /// A verifiable clinical record query's request: what it matches (not a sample predicate).
        var verifiableQuery: VerifiableRecordQuerySpec? = nil
    }

    private struct Pending {
        var request: Request
        /// The candidates' UUIDs the user was last shown; nil before any listing.
        var shown: [UUID]?
        /// The app's waiting call, given the objects the user allowed; nil for a document offer.
        let continuation: CheckedContinuation<[UUID], any Error>?
    }

    private var pending: [UInt64: Pending] = [:]
    private var nextID: UInt64 = 1
    private let maxPendingPerApp: Int

    init(maxPendingPerApp: Int) {
        self.maxPendingPerApp = maxPendingPerApp
    }

    /// Every pending request, oldest first.
    var requests: [Request] {
        pending.values.map(\.request).sorted { $0.id < $1.id }
    }

    /// Waits until `resolve` is called for the request and returns the objects the user allowed,
    /// or throws CancellationError when the app's call is cancelled (which withdraws it).
    @discardableResult
    func ask(app: AppManifest, installation: AppInstallation, typeIdentifier: String, predicate: SamplePredicate?,
             verifiableQuery: VerifiableRecordQuerySpec? = nil) async throws -> [UUID] {
        if let refusal = refusalAtLimit(app: app.id) { throw refusal }
        let id = nextID
        nextID += 1
        let request = Request(id: id, app: app, installation: installation, typeIdentifier: typeIdentifier, predicate: predicate,
                              isOffer: false, verifiableQuery: verifiableQuery)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UUID], any Error>) in
                pending[id] = Pending(request: request, shown: nil, continuation: continuation)
            }
        } onCancel: {
            Task { await self.withdraw(id) }
        }
    }

    /// RESOURCE_EXHAUSTED if `app` already has its limit of requests waiting (document offers,
    /// which no call waits on and which are one per app and type, do not count), else nil.
    func refusalAtLimit(app: String) -> RPCStatus? {
        guard pending.values.count(where: { $0.request.app.id == app && $0.continuation != nil }) >= maxPendingPerApp else { return nil }
        return BrokerLimits.exhausted("at most \(maxPendingPerApp) pending per-object read requests per app")
    }

    /// Files the app's offer of the documents of `typeIdentifier` matching `predicate` that the
    /// user has not decided on, replacing the predicate of one still pending for the same app and
    /// type (the newer query's); the candidates the user was shown stay what an answer decides.
    func offer(app: AppManifest, installation: AppInstallation, typeIdentifier: String, predicate: SamplePredicate?) {
        let existing = pending.first { entry in
            entry.value.continuation == nil && entry.value.request.app.id == app.id && entry.value.request.typeIdentifier == typeIdentifier
        }
        let id = existing?.key ?? nextID
        if existing == nil { nextID += 1 }
        let request = Request(id: id, app: app, installation: installation, typeIdentifier: typeIdentifier, predicate: predicate,
                              isOffer: true)
        pending[id] = Pending(request: request, shown: existing?.value.shown, continuation: nil)
    }

    /// Records the candidates a listing showed for request `id` (still pending).
    func show(_ id: UInt64, candidates: [UUID]) {
        pending[id]?.shown = candidates
    }

    /// A pending request, and the candidates the user was last shown for it (nil: never listed).
    func request(_ id: UInt64) -> (request: Request, shown: [UUID]?)? {
        pending[id].map { ($0.request, $0.shown) }
    }

    /// Resolves a request, handing its call the objects allowed; the caller has stored the
    /// decisions (a verifiable record query's are the call's alone).
    func resolve(_ id: UInt64, allowed: [UUID] = []) -> Bool {
        guard let entry = pending.removeValue(forKey: id) else { return false }
        entry.continuation?.resume(returning: allowed)
        return true
    }

    /// An offer the listing found nothing to show for (no undecided document, or the app's read
    /// permission gone): withdrawn, as an answered one is; the app's next document query files a
    /// new one. A request a call waits on is always shown, and stays.
    func withdrawOffer(_ id: UInt64) {
        if pending[id]?.continuation == nil { pending.removeValue(forKey: id) }
    }

    private func withdraw(_ id: UInt64) {
        pending.removeValue(forKey: id)?.continuation?.resume(throwing: CancellationError())
    }

    /// The app was removed: its requests are withdrawn (none can be answered for a later
    /// installation under the same id), and any call still waiting on one is told why.
    /// Returns how many were withdrawn.
    @discardableResult
    func withdrawAll(appID: String) -> Int {
        let ids = pending.filter { $0.value.request.app.id == appID }.map(\.key)
        for id in ids {
            pending.removeValue(forKey: id)?.continuation?.resume(
                throwing: HKError(.errorAuthorizationDenied, "the app was removed while its per-object read request waited"))
        }
        return ids.count
    }
}
