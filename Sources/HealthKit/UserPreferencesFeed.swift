import Foundation
import HealthWire
import Synchronization

/// How `.HKUserPreferencesDidChange` reaches a running app: one server-streamed feed per process
/// (per `BrokerConnection`), shared by every `HKHealthStore` in it.
///
/// Opened lazily, by a store's first `preferredUnits(for:)` — the apps that observe the
/// notification are the ones that read units, and a process that never does holds no idle
/// stream — and that call returns only once healthd has subscribed it (its first message), so a
/// change made after an app read its units is never missed. From then on each update is posted
/// by every store that joined and is still alive, with the store as the notification's object:
/// "Each HKHealthStore object posts its own HKUserPreferencesDidChangeNotification notification"
/// (Apple, `Notification.Name.HKUserPreferencesDidChange`). When the last of those stores is
/// released the stream is cancelled; when it fails (healthd gone, a limit reached) the next
/// `preferredUnits(for:)` opens it again. The updates carry nothing but a sequence number:
/// healthd sends one only for a type the app asked about (SECURITY.md), and the app re-reads.
final class UserPreferencesFeed: Sendable {
    private final class WeakStore: @unchecked Sendable {
        // Written once, read under the feed's lock.
        weak var store: HKHealthStore?
        init(_ store: HKHealthStore) { self.store = store }
    }

    private struct State {
        var stores: [ObjectIdentifier: WeakStore] = [:]
        var task: Task<Void, Never>?
        /// Which feed `task` runs: a cancelled one still finishing must not touch its successor's state.
        var generation: UInt64 = 0
        /// Whether the running feed has been subscribed (its first message arrived).
        var subscribed = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Joins `store` to the feed, opening the feed on `connection` if none runs, and returns once
    /// it is subscribed — or has failed: the notification is then missing, not the units.
    func join(_ store: HKHealthStore, on connection: BrokerConnection) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.stores[ObjectIdentifier(store)] = state.stores[ObjectIdentifier(store)] ?? WeakStore(store)
                if state.task == nil {
                    state.generation += 1
                    state.subscribed = false
                    let generation = state.generation
                    state.task = Task { [self] in await run(on: connection, generation: generation) }
                }
                if state.subscribed { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// `store` is being released: it posts nothing more, and the feed closes with the last store.
    func leave(_ store: ObjectIdentifier) {
        let ending = state.withLock { state -> Task<Void, Never>? in
            guard state.stores.removeValue(forKey: store) != nil, state.stores.isEmpty else { return nil }
            defer { state.task = nil }
            return state.task
        }
        ending?.cancel()
    }

    private func run(on connection: BrokerConnection, generation: UInt64) async {
        do {
            let (_, updates) = try connection.stream(.watchUserPreferences, UserPreferencesFeedRequest())
            for try await payload in updates {
                let update = try UserPreferencesUpdate(wire: payload)
                if update.sequence == 0 {
                    subscribed(generation)
                } else {
                    for store in liveStores() {
                        NotificationCenter.default.post(name: .HKUserPreferencesDidChange, object: store)
                    }
                }
            }
        } catch {
            // Ended (healthd gone, refused, cancelled): the next preferredUnits(for:) reopens it.
        }
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.generation == generation else { return [] }
            state.task = nil
            state.subscribed = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// The feed of `generation` is subscribed: the joins waiting for it return.
    private func subscribed(_ generation: UInt64) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.generation == generation else { return [] }
            state.subscribed = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    private func liveStores() -> [HKHealthStore] {
        state.withLock { state in
            state.stores = state.stores.filter { $0.value.store != nil }
            return state.stores.values.compactMap(\.store)
        }
    }
}
