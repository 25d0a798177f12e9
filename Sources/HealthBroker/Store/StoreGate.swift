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
actor StoreGate {
    /// The store while it is open: the encrypted database (which holds the store lock) and the
    /// repositories over it.
    struct OpenStore: Sendable {
        let encrypted: EncryptedDatabase
        let database: HealthDatabase
    }

    private enum State {
        case open(OpenStore)
        /// A key change is waiting for the calls inside to leave; new calls wait.
        case draining(OpenStore)
        /// Closed for a key change; new calls wait.
        case offline
        /// The store could not be reopened: every call fails, with this reason, until restart.
        case failed(String)
    }

    private var state: State
    private var inside = 0
    private var waiting: [UInt64: CheckedContinuation<HealthDatabase, any Error>] = [:]
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

    /// The open database; waits at most `limit` while a key change has the store closed.
    func enter(waitingAtMost limit: Duration) async throws -> HealthDatabase {
        switch state {
        case let .open(store):
            inside += 1
            return store.database
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
        guard case let .open(store) = state else {
            if case let .failed(reason) = state { throw HKError(.errorDatabaseInaccessible, reason) }
            preconditionFailure("the store is offline outside a key change")
        }
        state = .draining(store)
        if inside > 0 {
            drainGeneration += 1
            let generation = drainGeneration
            Task { [weak self] in
                try? await Task.sleep(for: limit)
                await self?.expireDrain(generation)
            }
            let emptied = await withCheckedContinuation { drained = $0 }
            guard emptied else {
                let busy = inside
                reopen(store)
                throw HKError(.errorDatabaseInaccessible,
                              "\(busy) call(s) using the store did not finish within \(limit) (a slow reader?); nothing was changed, try again")
            }
        }
        state = .offline
        return store
    }

    /// Opens the gate on `store` and admits every waiting call; returns how many waited.
    @discardableResult
    func reopen(_ store: OpenStore) -> Int {
        state = .open(store)
        let admitted = waiting
        waiting = [:]
        inside += admitted.count
        for continuation in admitted.values {
            continuation.resume(returning: store.database)
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
