import HealthModel
import HealthStore
import Synchronization

/// Admission to the store, so that it can be closed for a key change while the broker runs.
///
/// Every call that uses the store enters and leaves the gate (StoreHandle.withDatabase). A key
/// change closes the gate: calls arriving from then on wait (each at most a bounded time), the
/// change waits for the calls already inside to leave, gets the store to close, and reopens the
/// gate with the reopened store, admitting the waiting calls. Calls therefore never see a closed
/// store, and a save is either inside (it finishes and is committed before the store closes) or
/// waiting (it runs after the reopen): nothing acknowledged is lost.
///
/// The same gate locks the store (`healthctl lock`, StoreHandle+Lock): while locked a call is
/// admitted with `Access.locked` — the grants copy and the pending journal, never the database —
/// and StoreHandle turns that into errorDatabaseInaccessible for every read of health data.
actor StoreGate {
    /// The store while it is open: the encrypted database (which holds the store lock) and the
    /// repositories over it.
    struct OpenStore: Sendable {
        let encrypted: EncryptedDatabase
        let database: HealthDatabase
    }

    /// What a locked store still has: an in-memory copy of the apps and grants (so identity,
    /// authorization status, requests and grant editing keep working) and the pending journal
    /// that takes saves. No data key, no database.
    struct LockedStore: Sendable {
        let grants: HealthDatabase
        let journal: PendingJournal
        /// The routes apps build while locked, for `finishRoute`'s answer.
        let routes = LockedRouteDrafts()
        /// What each app journaled since the lock (`JournalAppends`).
        let journaled = JournalUse()
        /// Set when healthd started locked (`--start-locked`): it holds the store directory's
        /// lock, which the unlock releases before opening the store.
        let lockedStart: LockedStart?
    }

    /// What an admitted call gets: the open database, or the locked store.
    enum Access: Sendable {
        case open(HealthDatabase)
        case locked(LockedStore)
    }

    fileprivate enum State {
        case open(OpenStore)
        /// A key change is waiting for the calls inside to leave; new calls wait.
        case draining(OpenStore)
        /// Closed for a key change, a lock or an unlock; new calls wait.
        case offline
        /// Locked: calls are admitted with the locked store.
        case locked(LockedStore)
        /// The store could not be reopened: every call fails, with this reason, until restart.
        case failed(String)
    }

    private var state: State {
        // Whether a call may enter without the actor follows the state, in the same step.
        didSet { admission.withLock { $0.immediate = state.immediateAccess } }
    }
    private var waiting: [UInt64: CheckedContinuation<Access, any Error>] = [:]
    private var nextWaiter: UInt64 = 0

    /// Admission without the actor: while the store is open (or locked) a call enters and
    /// leaves with one lock, no actor hop and no suspension — so a short call can be answered on
    /// the thread that read it (`enterNow`). Everything that makes a call wait (a key change,
    /// lock, unlock, failure) is the actor's, which clears `immediate` first; the count of calls
    /// inside is here, so a drain sees every call admitted either way.
    private struct Admission {
        /// What a call gets now without waiting: set while open or locked, nil otherwise.
        var immediate: Access?
        var inside = 0
        /// Resumed with true when the last call inside leaves, false when the drain times out.
        var drained: CheckedContinuation<Bool, Never>?
        var drainGeneration: UInt64 = 0
    }

    private nonisolated let admission: Mutex<Admission>
    /// One key change at a time, from its checks to the reopen: a second one checked against
    /// key files the first is about to change would reopen the store with the wrong passcode.
    private var keyChangeClaimed = false

    init(_ store: OpenStore) {
        state = .open(store)
        admission = Mutex(Admission(immediate: .open(store.database)))
    }

    /// A gate that starts locked (`healthd --start-locked`): the store was never opened.
    init(locked: LockedStore) {
        state = .locked(locked)
        admission = Mutex(Admission(immediate: .locked(locked)))
    }

    /// The open database or the locked store, if a call may enter now without waiting; nil while
    /// a key change (or a lock or unlock) has the store closed, or it failed. Never suspends: for
    /// a call answered on the connection's reader thread. An entered call must `leave`.
    nonisolated func enterNow() -> Access? {
        admission.withLock { admission in
            guard let access = admission.immediate else { return nil }
            admission.inside += 1
            return access
        }
    }

    /// The locked store while the gate is locked, without entering it; nil while open, changing
    /// or failed. One lock, no suspension: for the journal bound's admission check
    /// (`CallDispatcher`), which reads only what each app journaled since the lock.
    nonisolated var lockedNow: LockedStore? {
        admission.withLock { admission in
            guard case let .locked(locked)? = admission.immediate else { return nil }
            return locked
        }
    }

    /// The open database or the locked store; waits at most `limit` while a key change (or a
    /// lock or unlock) has the store closed.
    nonisolated func enter(waitingAtMost limit: Duration) async throws -> Access {
        if let access = enterNow() { return access }
        return try await enterWaiting(atMost: limit)
    }

    /// `enter` past the fast path, on the actor, where the state is looked at again.
    private func enterWaiting(atMost limit: Duration) async throws -> Access {
        switch state {
        case let .open(store):  // reopened between the fast path and here
            admission.withLock { $0.inside += 1 }
            return .open(store.database)
        case let .locked(locked):
            admission.withLock { $0.inside += 1 }
            return .locked(locked)
        case let .failed(reason):
            throw HKError(.errorDatabaseInaccessible, reason)
        case .draining, .offline:
            let id = nextWaiter
            nextWaiter += 1
            Task { [weak self] in
                try? await Task.sleep(for: limit)
                await self?.expireWaiter(id, after: limit)
            }
            return try await withCheckedThrowingContinuation { waiting[id] = $0 }
        }
    }

    nonisolated func leave() {
        let drained = admission.withLock { admission -> CheckedContinuation<Bool, Never>? in
            admission.inside -= 1
            guard admission.inside == 0, let drained = admission.drained else { return nil }
            admission.drained = nil
            return drained
        }
        drained?.resume(returning: true)
    }

    /// Claims the right to change keys; throws if another change holds it.
    func claimKeyChange() throws {
        guard !keyChangeClaimed else {
            throw HKError(.errorDatabaseInaccessible, "another key change is under way; try again when it is done")
        }
        keyChangeClaimed = true
    }

    func releaseKeyChange() {
        keyChangeClaimed = false
    }

    /// Stops admitting calls, waits (at most `limit`) for those inside to leave, and hands over
    /// the store for closing. If they do not leave in time, the gate opens again and this throws.
    func takeOffline(drainingAtMost limit: Duration) async throws -> OpenStore {
        switch state {
        case let .open(store):
            state = .draining(store)
            // Before the drain: a stream outside the gate (between its messages) ends at its next
            // one from now on, whatever it would have asked the store, and a question it is
            // asking now ends before anything closes (`StoreLifetime`, `StreamVisibility`).
            await store.database.lifetime.beginClosing()
            try await drain(atMost: limit, restoring: .open(store))
            state = .offline
            return store
        case .locked:
            throw HKError(.errorDatabaseInaccessible, "the health store is locked; unlock it first (healthctl unlock)")
        case let .failed(reason):
            throw HKError(.errorDatabaseInaccessible, reason)
        case .draining, .offline:
            preconditionFailure("the store is offline outside a key change")
        }
    }

    /// The locked counterpart of `takeOffline`, for an unlock: stops admitting calls, waits for
    /// those inside (journal appends, grant reads) to leave, and hands over the locked store.
    func takeLockedOffline(drainingAtMost limit: Duration) async throws -> LockedStore {
        guard case let .locked(locked) = state else {
            if case let .failed(reason) = state { throw HKError(.errorDatabaseInaccessible, reason) }
            throw HKError(.errorInvalidArgument, "the health store is not locked")
        }
        state = .offline
        try await drain(atMost: limit, restoring: .locked(locked))
        return locked
    }

    var isLocked: Bool {
        if case .locked = state { return true }
        return false
    }

    /// Waits (at most `limit`) until no call is inside; if they do not leave in time, the gate
    /// goes back to `previous` (admitting the calls that waited) and this throws.
    private func drain(atMost limit: Duration, restoring previous: State) async throws {
        let generation = admission.withLock { admission -> UInt64? in
            guard admission.inside > 0 else { return nil }
            admission.drainGeneration += 1
            return admission.drainGeneration
        }
        guard let generation else { return }
        Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.expireDrain(generation)
        }
        let emptied = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let empty = admission.withLock { admission in
                if admission.inside == 0 { return true }
                admission.drained = continuation
                return false
            }
            if empty { continuation.resume(returning: true) }
        }
        guard emptied else {
            let busy = admission.withLock { $0.inside }
            switch previous {
            case let .open(store): reopen(store)
            case let .locked(locked): lockDown(locked)
            case .draining, .offline, .failed: state = previous
            }
            throw HKError(.errorDatabaseInaccessible,
                          "\(busy) call(s) using the store did not finish within \(limit) (a slow reader?); nothing was changed, try again")
        }
    }

    /// Locks the gate on `locked` (the store is closed) and admits every waiting call to it.
    func lockDown(_ locked: LockedStore) {
        state = .locked(locked)
        admitWaiting(.locked(locked))
    }

    /// Opens the gate on `store` and admits every waiting call; returns how many waited. The
    /// store taken offline before, when its close was called off, serves again: streams begun
    /// on it from now on go on (`StoreLifetime`).
    @discardableResult
    func reopen(_ store: OpenStore) -> Int {
        store.database.lifetime.closeCalledOff()
        state = .open(store)
        return admitWaiting(.open(store.database))
    }

    @discardableResult
    private func admitWaiting(_ access: Access) -> Int {
        let admitted = waiting
        waiting = [:]
        admission.withLock { $0.inside += admitted.count }
        for continuation in admitted.values {
            continuation.resume(returning: access)
        }
        return admitted.count
    }

    /// The store could not be reopened: fail the waiting calls and every later one.
    func fail(_ reason: String) {
        state = .failed(reason)
        let failed = waiting
        waiting = [:]
        for continuation in failed.values {
            continuation.resume(throwing: HKError(.errorDatabaseInaccessible, reason))
        }
    }

    private func expireWaiter(_ id: UInt64, after limit: Duration) {
        waiting.removeValue(forKey: id)?.resume(throwing: HKError(
            .errorDatabaseInaccessible, "the health store stayed offline for a key change longer than \(limit); try again"))
    }

    /// On the actor: `drain` stores its continuation in the same actor step that started this
    /// timer, so an expiry can never come before it and be lost.
    private func expireDrain(_ generation: UInt64) {
        let drained = admission.withLock { admission -> CheckedContinuation<Bool, Never>? in
            guard generation == admission.drainGeneration, let drained = admission.drained else { return nil }
            admission.drained = nil
            return drained
        }
        drained?.resume(returning: false)
    }
}

private extension StoreGate.State {
    /// The access a call gets at once in this state; nil where it must wait or fail.
    var immediateAccess: StoreGate.Access? {
        switch self {
        case let .open(store): .open(store.database)
        case let .locked(locked): .locked(locked)
        case .draining, .offline, .failed: nil
        }
    }
}
