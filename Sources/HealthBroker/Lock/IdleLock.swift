import Logging
import Synchronization

/// Locks the store after `limit` without activity that needs it unlocked (`healthd
/// --lock-after`; off by default). Activity is any admission to the database itself
/// (`StoreHandle.withDatabase`: reads, saves, merges) — not status calls, authorization
/// status, requests or the idle check itself, which work while locked anyway.
final class IdleLock: Sendable {
    let limit: Duration
    private let lastActivity = Mutex(ContinuousClock.now)

    init(limit: Duration) {
        self.limit = limit
    }

    func touch() {
        lastActivity.withLock { $0 = .now }
    }

    /// Checks every `limit / 10` (between 100 ms and 10 s) until the task is cancelled.
    func run(store: StoreHandle, logger: Logger) async {
        let tick = min(max(limit / 10, .milliseconds(100)), .seconds(10))
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            let idle = ContinuousClock.now - lastActivity.withLock { $0 }
            guard idle >= limit, await !store.isLocked else { continue }
            do {
                try await store.lock()
                logger.notice("store locked after inactivity", metadata: ["idle": "\(idle)"])
            } catch {
                // A key change under way, or a slow reader that did not drain: try at the next tick.
                logger.info("idle lock postponed", metadata: ["reason": "\(error)"])
            }
        }
    }
}
