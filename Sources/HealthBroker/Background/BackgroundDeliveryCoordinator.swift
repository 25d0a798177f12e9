import HealthWire
import Logging
import Synchronization

/// Background delivery in the broker: what the rest of healthd tells it, and the one task
/// (`BackgroundDeliveryLoop`) that decides launches. Everything arrives as an event on one
/// stream, handled in order by that task, so the schedule has a single owner and no locks.
///
/// Posting never blocks: commit wake-ups come from the store's writer thread. Wake-ups of
/// registrations are folded — a burst of commits costs one visibility check per registration.
final class BackgroundDeliveryCoordinator: Sendable {
    enum Event: Sendable {
        /// An app enabled or disabled registrations (nil: load every app's, at start-up).
        case registrationsChanged(appID: String?)
        /// Registrations were woken by commits or grant changes; `takeWokenKeys` says which.
        case registrationsWoken
        /// The app acknowledged an observer update that covered every change through `through`.
        case acknowledged(BackgroundSchedule.Key, through: Int64)
        /// An observer query of the app ended (stopped, or its app exited): a change it was
        /// sent but never acknowledged is owed to a launch now.
        case observerEnded(BackgroundSchedule.Key)
        case agentAttached
        case dispatched(LaunchRequest)
        case undelivered([LaunchRequest])
        /// The agent said what it did with `request` (nil for an exit).
        case outcome(LaunchOutcome, request: LaunchRequest?)
        /// A deadline of the schedule passed (a wait timed out, a period ended).
        case deadline
    }

    /// The agent that launches apps, as the WatchLaunches handler reaches it.
    let launches = LaunchChannel()
    let policy: BackgroundSchedule.Policy
    private let events: AsyncStream<Event>.Continuation
    private let stream: Mutex<AsyncStream<Event>?>
    private let woken = Mutex<Set<BackgroundSchedule.Key>>([])
    /// Whether a launch is owed or under way (`BackgroundSchedule.hasPendingWork`), as of the
    /// loop's last event. True until the loop has loaded the persisted schedule.
    private let pendingWork = Mutex(true)

    init(policy: BackgroundSchedule.Policy) {
        self.policy = policy
        let (stream, events) = AsyncStream<Event>.makeStream()
        self.events = events
        self.stream = Mutex(stream)
    }

    /// Starts the loop (once): it loads every registration and runs for the broker's lifetime.
    func start(store: StoreHandle, changes: ChangeNotifier, observers: ObserverRegistry, logger: Logger) {
        guard let stream = stream.withLock({ $0.take() }) else { return }
        let loop = BackgroundDeliveryLoop(coordinator: self, store: store, changes: changes, observers: observers,
                                          logger: logger, schedule: BackgroundSchedule(policy: policy))
        events.yield(.registrationsChanged(appID: nil))
        Task {
            var loop = loop
            await loop.run(stream)
        }
    }

    func registrationsChanged(appID: String) { events.yield(.registrationsChanged(appID: appID)) }

    /// Every app's registrations, read again (after the first unlock of a healthd started locked).
    func reloadAllRegistrations() { events.yield(.registrationsChanged(appID: nil)) }

    /// An app acknowledged an update of its observer query of `typeIdentifier`, an update decided
    /// from the changes through change number `through`.
    func observerAcknowledged(appID: String, typeIdentifier: String, through: Int64) {
        events.yield(.acknowledged(.init(appID: appID, typeIdentifier: typeIdentifier), through: through))
    }

    /// An observer query of `appID` of `typeIdentifier` stopped running.
    func observerEnded(appID: String, typeIdentifier: String) {
        events.yield(.observerEnded(.init(appID: appID, typeIdentifier: typeIdentifier)))
    }

    func agentAttached() { events.yield(.agentAttached) }

    /// The agent's call sent `request` to it.
    func launchDispatched(_ request: LaunchRequest) { events.yield(.dispatched(request)) }

    /// The agent went away before these reached it.
    func launchesUndelivered(_ requests: [LaunchRequest]) {
        if !requests.isEmpty { events.yield(.undelivered(requests)) }
    }

    /// The agent's outcome of a launch; refused unless the attached agent reports it for a
    /// request it was sent.
    func launchOutcome(_ outcome: LaunchOutcome, from pid: Int32) throws(LaunchChannel.OutcomeRefusal) {
        let request = try launches.takeOutcome(outcome, from: pid)
        events.yield(.outcome(outcome, request: request))
    }

    // MARK: For the loop

    /// A registration's wake-up (any thread, the writer's included).
    func wake(_ key: BackgroundSchedule.Key) {
        let first = woken.withLock { woken in
            defer { woken.insert(key) }
            return woken.isEmpty
        }
        if first { events.yield(.registrationsWoken) }
    }

    func takeWokenKeys() -> Set<BackgroundSchedule.Key> {
        woken.withLock { woken in
            defer { woken = [] }
            return woken
        }
    }

    func deadlinePassed() { events.yield(.deadline) }

    /// A socket-activated healthd stays up while this holds: nothing else would start it when a
    /// period or a back-off ends, or deliver an outcome or acknowledgement it waits for.
    var hasPendingWork: Bool { pendingWork.withLock { $0 } }

    func publishPendingWork(_ pending: Bool) { pendingWork.withLock { $0 = pending } }
}
