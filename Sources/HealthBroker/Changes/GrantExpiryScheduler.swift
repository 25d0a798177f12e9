import Foundation
import HealthStore
import Logging
import Synchronization

/// Wakes an app's long-running queries at the instant one of its temporary grants expires, as
/// `SetGrants` does when the user changes a grant: at that instant the grant is denied
/// (`AuthorizationEngine` evaluates expiry on every call), and a query that re-reads under the
/// new scope then, rather than at the next unrelated change, applies it at once (DESIGN.md §7.6).
///
/// One task sleeps until `AuthorizationEngine.nextGrantExpiry()`, posts
/// `ChangeNotifier.post(grantsChangedFor:)` for every app whose grant expired since it last
/// looked, and sleeps again. Any grant change may move the next expiry, so whoever changes
/// grants calls `reschedule()`, which replaces the task.
final class GrantExpiryScheduler: Sendable {
    /// Where the scheduler gets its facts; closures so tests can drive it without a broker.
    struct Sources: Sendable {
        /// The first expiry after the instant, or nil.
        let nextExpiry: @Sendable (_ after: Date) async throws -> Date?
        /// The apps with a grant expiring in (after, through].
        let appsExpiring: @Sendable (_ after: Date, _ through: Date) async throws -> [String]
        let now: @Sendable () -> Date
    }

    /// The longest single sleep: the wall clock may be set while the task sleeps on a monotonic
    /// one, so it looks again at least this often.
    static let longestSleep: TimeInterval = 300

    private let sources: Sources
    private let notify: @Sendable (_ appID: String) -> Void
    private let failed: @Sendable (any Error) -> Void
    private struct State {
        var task: Task<Void, Never>?
        /// Expiries up to here have been posted.
        var postedThrough: Date
    }
    private let state: Mutex<State>

    /// `notify` is called with each app whose grant expired; `failed` when the grants could not
    /// be read (the scheduler tries again a second later).
    init(sources: Sources, failed: @escaping @Sendable (any Error) -> Void, notify: @escaping @Sendable (_ appID: String) -> Void) {
        self.sources = sources
        self.notify = notify
        self.failed = failed
        state = Mutex(State(task: nil, postedThrough: sources.now()))
    }

    /// Over the broker's store and notifier.
    convenience init(store: StoreHandle, changes: ChangeNotifier, logger: Logger) {
        let sources = Sources(
            // Grants only: answered from the in-memory copy while the store is locked.
            nextExpiry: { after in try await store.withGrants { try $0.authorization.nextGrantExpiry(after: after) } },
            appsExpiring: { after, through in
                try await store.withGrants { try $0.grants.appsWithGrantsExpiring(after: after, through: through) }
            },
            now: { Date() })
        self.init(sources: sources, failed: { error in
            // The store may be offline for a key change.
            logger.warning("cannot plan grant expiries", metadata: ["error": "\(error)"])
        }, notify: { app in
            logger.notice("temporary grant expired", metadata: ["app": "\(app)"])
            changes.post(grantsChangedFor: app)
        })
    }

    /// Plans the wake-up for the next expiry afresh. Call at start and after every grant change.
    func reschedule() {
        let task = Task { [self] in await run() }
        state.withLock { state in
            state.task?.cancel()
            state.task = task
        }
    }

    /// Stops waiting (the broker is shutting down).
    func cancel() {
        state.withLock { state in
            state.task?.cancel()
            state.task = nil
        }
    }

    private func run() async {
        while !Task.isCancelled {
            do {
                // Expiries passed before this look (the previous task was replaced, or reading
                // took long) are posted first; the next is looked for after what was posted, so
                // none falls between the two reads.
                let posted = try await postExpired()
                guard let next = try await sources.nextExpiry(posted) else { return }
                let delay = min(max(0, next.timeIntervalSince(sources.now())), Self.longestSleep)
                // A millisecond past the instant: from then on the grant reads as denied.
                try await Task.sleep(for: .seconds(delay) + .milliseconds(1))
            } catch is CancellationError {
                return
            } catch {
                failed(error)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Notifies the apps whose grants expired since the last post; returns the instant posted through.
    private func postExpired() async throws -> Date {
        let now = sources.now()
        let since = state.withLock { $0.postedThrough }
        guard now > since else { return since }
        let apps = try await sources.appsExpiring(since, now)
        state.withLock { $0.postedThrough = max($0.postedThrough, now) }
        for app in apps { notify(app) }
        return now
    }
}
