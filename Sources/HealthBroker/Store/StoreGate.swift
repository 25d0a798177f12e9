import HealthModel
import HealthStore

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
    }

    /// What an admitted call gets: the open database, or the locked store.
    enum Access: Sendable {
        case open(HealthDatabase)
        case locked(LockedStore)
    }

    private enum State {
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

    private var state: State
    private var inside = 0
    private var waiting: [UInt64: CheckedContinuation<Access, any Error>] = [:]
    private var nextWaiter: UInt64 = 0
    /// Resumed with true when the last call inside leaves, false when the drain times out.
    private var drained: CheckedContinuation<Bool, Never>?
    private var drainGeneration: UInt64 = 0
    /// One key change at a time, from its checks to the reopen: a second one checked against
    /// key files the first is about to change would reopen the store with the wrong passcode.
    private var keyChangeClaimed = false

    init(_ store: OpenStore) {
        state = .open(store)
    }

    /// The open database or the locked store; waits at most `limit` while a key change (or a
    /// lock or unlock) has the store closed.
    func enter(waitingAtMost limit: Duration) async throws -> Access {
        switch state {
        case let .open(store):
            inside += 1
            return .open(store.database)
        case let .locked(locked):
            inside += 1
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

    func leave() {
        inside -= 1
        if inside == 0, let drained {
            self.drained = nil
            drained.resume(returning: true)
        }
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
        guard inside > 0 else { return }
        drainGeneration += 1
        let generation = drainGeneration
        Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.expireDrain(generation)
        }
        let emptied = await withCheckedContinuation { drained = $0 }
        guard emptied else {
            let busy = inside
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

    /// Opens the gate on `store` and admits every waiting call; returns how many waited.
    @discardableResult
    func reopen(_ store: OpenStore) -> Int {
        state = .open(store)
        return admitWaiting(.open(store.database))
    }

    @discardableResult
    private func admitWaiting(_ access: Access) -> Int {
        let admitted = waiting
        waiting = [:]
        inside += admitted.count
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

    private func expireDrain(_ generation: UInt64) {
        guard generation == drainGeneration, let drained else { return }
        self.drained = nil
        drained.resume(returning: false)
    }
}
