/// The store visits of an app's long-running query — its first answer, every recomputation and
/// every re-check after a wake-up — each in a `QueryScheduler` slot, in turn with every app's
/// large queries (ARCHITECTURE.md "Scheduling"). `CallDispatcher` binds `current` around a
/// long-running call; `StoreHandle.withCurrentStore`, the one way into the store, takes the slot.
///
/// Why at the store's door rather than in each service: a long-running query's work that grows
/// with the data is exactly its store visits (a statistics collection of 15,000 intervals, a year
/// of activity summaries, an anchored delivery, an effort relation read), and a service added
/// later cannot forget it. Before, these ran on the shared pool outside the slots: one app's 24
/// watches computed at once, taking every pool thread (one per core) while other apps' calls
/// waited for them (`WatchSchedulingEndToEndTests`).
///
/// Only *computations* take a slot: a check whose work the request bounds — whether anything the
/// app may see changed after its query's cursor (`DeliveryRecheck`, `ChangeFeedRepository.hasChanges`,
/// a watch's basis test) — runs outside (`outsideSlots`, through `StoreHandle.withDatabaseToCheck`).
/// Such a check runs at every commit of a watched type, by anyone: in a slot, an app with no read
/// permission saw another source's hidden save as its own next large query waiting behind up to 24
/// checks in its own queue, each a turn of the broker-wide slot (privacy review, session 19,
/// finding 5). What a check costs follows the rows its scope admits — its own changes since the
/// query's last check and, under a window grant, the window's rows (`SampleSQL.laterChanges`) —
/// and the app's predicate over those that changed; it runs
/// on a thread of its own, under one budget, one per app at a time (`StoreHandle.withDatabaseToCheck`).
///
/// Only the visit holds the slot, never the waits between visits: a delivery waits for its client
/// (`CallResponder.waitUntilReady`) and for the next wake-up outside the store, holding nothing.
/// The slot's app share (one per app) makes an app's watches and large queries queue behind each
/// other, never in front of another app's calls.
struct ScheduledStoreVisits: Sendable {
    let scheduler: QueryScheduler
    let app: String

    /// The visits of the running call: nil outside a long-running query (a large query holds its
    /// slot for the whole call, a cheap call's work is bounded by its request).
    @TaskLocal static var current: ScheduledStoreVisits?
    /// Inside a visit that holds its slot: a visit nested in it (`withDatabaseOffPool` enters
    /// through `withDatabase`) takes no second slot, which would wait for the first forever.
    @TaskLocal static var holdingSlot = false

    /// Runs `visit` in a slot of the current call's app; at once when the call is not a
    /// long-running query or already holds its slot. Throws `CancellationError` if the call is
    /// cancelled (or the store locks, `CallDispatcher.runUntilLocked`) while it waits.
    static func run<T: Sendable>(_ visit: () async throws -> T) async throws -> T {
        guard let current, !holdingSlot else { return try await visit() }
        return try await current.scheduler.run(app: current.app) {
            LongRunningWork.countSlotVisit()
            return try await $holdingSlot.withValue(true) { try await visit() }
        }
    }

    /// Runs `check` without a slot, also inside a long-running query's call: for work the request
    /// bounds, which must not wait in (or hold) the queue the app's own large queries wait in.
    static func outsideSlots<T: Sendable>(_ check: () async throws -> T) async throws -> T {
        try await $current.withValue(nil) { try await check() }
    }
}
