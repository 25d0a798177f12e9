import HealthModel

/// When to launch apps for background delivery: a pure state machine over the registrations,
/// driven by events (a visible change, a launch handed to the agent, an acknowledgement) and
/// by the time, which every call takes as an argument — so the policy is tested without clocks,
/// sockets or processes (`BackgroundScheduleTests`). `BackgroundDeliveryLoop` feeds it and
/// carries out what it decides.
///
/// The rules, per registration (app, type):
/// - A visible change makes it *pending*, whether or not an observer query of the app runs.
///   Only the app's acknowledgement of an observer update of the type that covered the change
///   clears it (HKObserverQueryCompletionHandler: calling it "tells HealthKit that you have
///   successfully received the background data"); an update sent but never acknowledged is
///   not delivered. While the app observes the type, the launch is held (`takeDue(held:)`).
/// - A pending registration is *due* when its app has no launch awaiting acknowledgement and
///   its frequency allows it: `.immediate` at once, `.hourly`/`.daily`/`.weekly` no sooner
///   than that period after its last launch. Changes meanwhile coalesce into that one launch.
/// - A launch handed to the agent waits for the agent's outcome. *Launched*: the app's
///   acknowledgement is awaited. *Already running*: nothing was started; the running instance's
///   observer may take the update (an acknowledgement clears it), otherwise it is launched again
///   once the agent reports that instance's exit (at once if the exit was reported first). *Failed*: counts as an unanswered launch.
///   An app that exits while its acknowledgement is awaited has not taken the update: that
///   counts as an unanswered launch at once, without waiting for the timeout.
/// - A launch is awaited for `acknowledgementTimeout`. Unanswered, the registration waits an
///   exponentially growing backoff before the next launch; after `unacknowledgedLaunchLimit`
///   unanswered launches in a row it is suspended (HealthKit likewise stops after three) until
///   the app acknowledges an observer update of the type or enables delivery again.
/// - Due launches are taken only while an agent is connected; until then they wait here, at
///   most one per registration, so waiting is bounded by the registrations.
/// - Every owed delivery has a next attempt. A due launch that could not be sent (the agent
///   refused the offer, or its re-check could not read the store) and a change check that could
///   not read the store (locked) are retried after `firstRetryDelay`, doubling to
///   `maximumRetryDelay` — without waiting for an unrelated event, and without counting
///   towards suspension (the failure is healthd's, not the app's).
struct BackgroundSchedule: Sendable {
    typealias Instant = ContinuousClock.Instant

    struct Key: Hashable, Sendable, Comparable {
        let appID: String
        let typeIdentifier: String

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.appID, lhs.typeIdentifier) < (rhs.appID, rhs.typeIdentifier)
        }
    }

    typealias Policy = BackgroundDeliveryPolicy

    enum Phase: Equatable, Sendable {
        case idle
        /// Given to the agent's stream, not yet confirmed sent.
        case handedToAgent
        /// Sent to the agent, which has not yet said what it did.
        case awaitingOutcome(since: Instant)
        /// The agent found an instance of the app still running; relaunched when it exits.
        case waitingForExit
        case awaitingAcknowledgement(since: Instant)
        /// Too many launches went unacknowledged; no more until the app acknowledges or re-enables.
        case suspended
    }

    struct Entry: Equatable, Sendable {
        var frequency: HKUpdateFrequency
        var pending = false
        var phase = Phase.idle
        var lastLaunch: Instant?
        var unacknowledgedLaunches = 0
        /// Set when a launch went unacknowledged: no relaunch before it.
        var retryNotBefore: Instant?
        /// Due launches in a row that could not be sent, and when to try the next one.
        var failedSends = 0
        var sendRetryAt: Instant?
        /// Change checks in a row that could not read the store, and when to check again
        /// (nil: no check is owed).
        var failedChecks = 0
        var checkRetryAt: Instant?
        /// An instance of the app exited while this launch awaited the agent's outcome. The
        /// agent's "already running" can be decided before that exit and reach healthd after
        /// it: then the instance it names is gone, and waiting for its exit would wait forever.
        var exitedAwaitingOutcome = false
    }

    let policy: Policy
    private(set) var entries: [Key: Entry] = [:]

    init(policy: Policy) {
        self.policy = policy
    }

    /// A registration was enabled (or enabled again, possibly with a new frequency). Enabling
    /// again resumes a suspended registration, as the app evidently runs.
    mutating func register(_ key: Key, frequency: HKUpdateFrequency) {
        var entry = entries[key] ?? Entry(frequency: frequency)
        entry.frequency = frequency
        if entry.phase == .suspended {
            entry.phase = .idle
            entry.unacknowledgedLaunches = 0
            entry.retryNotBefore = nil
        }
        entries[key] = entry
    }

    /// Puts back what a previous run of healthd persisted for `key` (after `register`): whether a
    /// launch is owed, the last launch, the unanswered launches and their back-off. A launch that
    /// was in flight when healthd stopped is owed again (its acknowledgement never came here).
    mutating func restore(_ key: Key, pending: Bool, lastLaunch: Instant?, unanswered: Int, retryNotBefore: Instant?, suspended: Bool) {
        guard var entry = entries[key] else { return }
        entry.pending = pending
        entry.lastLaunch = lastLaunch
        entry.unacknowledgedLaunches = unanswered
        entry.retryNotBefore = retryNotBefore
        entry.phase = suspended ? .suspended : .idle
        entries[key] = entry
    }

    mutating func unregister(_ key: Key) {
        entries[key] = nil
    }

    /// A change the app may see happened to the type while no observer query of it ran.
    mutating func noteVisibleChange(_ key: Key) {
        entries[key]?.pending = true
    }

    /// The app acknowledged an observer update of the type: it has what changed so far, and it
    /// evidently runs, so any backoff or suspension ends.
    mutating func noteAcknowledged(_ key: Key) {
        guard var entry = entries[key] else { return }
        entry.pending = false
        entry.unacknowledgedLaunches = 0
        entry.retryNotBefore = nil
        entry.failedSends = 0
        entry.sendRetryAt = nil
        if entry.phase != .handedToAgent && !entry.phase.isAwaitingOutcome { entry.phase = .idle }
        entries[key] = entry
    }

    /// Ends the waits that timed out by `now` (an acknowledgement, or an agent's outcome),
    /// counting each as an unacknowledged launch.
    mutating func expire(now: Instant) {
        for (key, entry) in entries {
            switch entry.phase {
            case let .awaitingAcknowledgement(since) where now >= since + policy.acknowledgementTimeout,
                 let .awaitingOutcome(since) where now >= since + policy.acknowledgementTimeout:
                countUnanswered(key, now: now)
            default:
                continue
            }
        }
    }

    /// One more launch of `key` went unanswered: back off, or suspend after too many.
    private mutating func countUnanswered(_ key: Key, now: Instant) {
        guard var entry = entries[key] else { return }
        entry.unacknowledgedLaunches += 1
        if entry.unacknowledgedLaunches >= policy.unacknowledgedLaunchLimit {
            entry.phase = .suspended
            entry.retryNotBefore = nil
        } else {
            entry.phase = .idle
            entry.retryNotBefore = now + backoff(after: entry.unacknowledgedLaunches)
        }
        entries[key] = entry
    }

    /// The launches due at `now`, one per app with the types it is for (sorted), and marks
    /// them handed to the agent. Call only while an agent can take them.
    ///
    /// `held` names registrations whose app runs an observer query of the type now: their
    /// change stays pending but is not launched for — the running observer is sent it, and
    /// only its acknowledgement clears it (`noteAcknowledged`). If the query ends first (the
    /// app exits without calling the completion handler), the hold ends and the launch is due.
    mutating func takeDue(now: Instant, held: (Key) -> Bool = { _ in false }) -> [(appID: String, typeIdentifiers: [String])] {
        let busyApps = Set(entries.filter { $0.value.phase != .idle && $0.value.phase != .suspended }.map(\.key.appID))
        var due: [String: [String]] = [:]
        for key in entries.keys.sorted() where !busyApps.contains(key.appID) && !held(key) {
            guard let entry = entries[key], entry.phase == .idle, entry.pending,
                  earliestLaunch(of: entry).map({ $0 <= now }) ?? true else { continue }
            due[key.appID, default: []].append(key.typeIdentifier)
            entries[key]?.phase = .handedToAgent
            entries[key]?.exitedAwaitingOutcome = false
        }
        return due.keys.sorted().map { ($0, due[$0]!) }
    }

    /// The agent received the launch of `appID` for `typeIdentifiers` at `now`; its outcome is awaited.
    mutating func noteDispatched(appID: String, typeIdentifiers: [String], now: Instant) {
        for key in keys(appID, typeIdentifiers) where entries[key]?.phase == .handedToAgent {
            entries[key]?.phase = .awaitingOutcome(since: now)
            entries[key]?.failedSends = 0
            entries[key]?.sendRetryAt = nil
        }
    }

    /// A due launch taken at `now` could not be sent: the agent refused the offer, or the
    /// re-check could not read the store. It stays owed and is tried again after a growing
    /// delay (`retryDelay`), so it never waits for an unrelated event.
    mutating func noteSendFailed(appID: String, typeIdentifiers: [String], now: Instant) {
        for key in keys(appID, typeIdentifiers) where entries[key]?.phase == .handedToAgent {
            guard var entry = entries[key] else { continue }
            entry.phase = .idle
            entry.failedSends += 1
            entry.sendRetryAt = now + retryDelay(after: entry.failedSends)
            entries[key] = entry
        }
    }

    /// A launch agent attached: a launch refused by the agent before it (one going away) may be
    /// sent to this one at once, not after its retry delay.
    mutating func noteAgentAttached() {
        for key in entries.keys where entries[key]?.sendRetryAt != nil {
            entries[key]?.failedSends = 0
            entries[key]?.sendRetryAt = nil
        }
    }

    /// Checking `key` for changes at `now` could not read the store: the changes after its
    /// cursor may be owed, so the check is due again after a growing delay (`takeChecksDue`).
    mutating func noteCheckFailed(_ key: Key, now: Instant) {
        guard var entry = entries[key] else { return }
        entry.failedChecks += 1
        entry.checkRetryAt = now + retryDelay(after: entry.failedChecks)
        entries[key] = entry
    }

    /// Checking `key` read the store: no check is owed any more.
    mutating func noteChecked(_ key: Key) {
        entries[key]?.failedChecks = 0
        entries[key]?.checkRetryAt = nil
    }

    /// The registrations whose failed check is due again at `now` (sorted). The caller checks
    /// each and reports `noteChecked` or `noteCheckFailed`.
    func checksDue(now: Instant) -> [Key] {
        entries.filter { $0.value.checkRetryAt.map { $0 <= now } ?? false }.map(\.key).sorted()
    }

    /// The agent started the app at `now`: its acknowledgement is awaited, and the frequency's
    /// period counts from now.
    mutating func noteLaunched(appID: String, typeIdentifiers: [String], now: Instant) {
        for key in keys(appID, typeIdentifiers) where entries[key]?.phase.isAwaitingOutcome == true {
            // Acknowledged already (the report came after the app's acknowledgement): nothing awaited.
            guard var entry = entries[key] else { continue }
            entry.phase = entry.pending ? .awaitingAcknowledgement(since: now) : .idle
            entry.lastLaunch = now
            entries[key] = entry
        }
    }

    /// The agent started nothing: an instance of the app still runs. The change stays pending
    /// (the running instance's observer may take it) until that instance exits — or, if its
    /// exit was reported first (`noteExited` while awaiting this outcome), it is due again now.
    mutating func noteStillRunning(appID: String, typeIdentifiers: [String]) {
        for key in keys(appID, typeIdentifiers) where entries[key]?.phase.isAwaitingOutcome == true {
            guard var entry = entries[key] else { continue }
            entry.phase = entry.exitedAwaitingOutcome ? .idle : .waitingForExit
            entry.exitedAwaitingOutcome = false
            entries[key] = entry
        }
    }

    /// The agent could not start the app: an unanswered launch (back-off, then suspension).
    mutating func noteLaunchFailed(appID: String, typeIdentifiers: [String], now: Instant) {
        for key in keys(appID, typeIdentifiers) where entries[key]?.phase.isAwaitingOutcome == true {
            entries[key]?.lastLaunch = now
            countUnanswered(key, now: now)
        }
    }

    /// An instance of `appID` the agent launched exited at `now`. Registrations waiting for
    /// that are due again; those whose acknowledgement it never sent count it as unanswered.
    mutating func noteExited(appID: String, now: Instant) {
        for key in entries.keys.sorted() where key.appID == appID {
            switch entries[key]?.phase {
            case .waitingForExit: entries[key]?.phase = .idle
            case .awaitingAcknowledgement: countUnanswered(key, now: now)
            // Only one instance runs at a time and no other launch of the app is under way, so
            // an "already running" still to come names this instance (`noteStillRunning`).
            case .handedToAgent, .awaitingOutcome: entries[key]?.exitedAwaitingOutcome = true
            default: continue
            }
        }
    }

    /// A launch handed to the agent never reached it, or reached an agent that went away before
    /// saying what it did: it is due again for the next agent, its change still pending.
    mutating func noteUndelivered(appID: String, typeIdentifiers: [String]) {
        for key in keys(appID, typeIdentifiers) {
            if entries[key]?.phase == .handedToAgent || entries[key]?.phase.isAwaitingOutcome == true { entries[key]?.phase = .idle }
        }
    }

    private func keys(_ appID: String, _ typeIdentifiers: [String]) -> [Key] {
        typeIdentifiers.map { Key(appID: appID, typeIdentifier: $0) }
    }

    /// What made `key` pending is no longer owed (re-checked when its launch was due: revoked,
    /// expired, out of the window): nothing is pending until a new visible change.
    mutating func noteWithdrawn(_ key: Key) {
        guard var entry = entries[key] else { return }
        entry.pending = false
        entry.failedSends = 0
        entry.sendRetryAt = nil
        if entry.phase == .handedToAgent { entry.phase = .idle }
        entries[key] = entry
    }

    /// The earliest instant after `now` at which, without any event, something changes: a wait
    /// times out, or a pending registration's period or backoff ends. Nil when nothing waits.
    func nextDeadline(after now: Instant) -> Instant? {
        var deadlines: [Instant] = []
        for entry in entries.values {
            switch entry.phase {
            case let .awaitingAcknowledgement(since), let .awaitingOutcome(since):
                deadlines.append(since + policy.acknowledgementTimeout)
            case .idle where entry.pending:
                if let earliest = earliestLaunch(of: entry) { deadlines.append(earliest) }
            default:
                break
            }
            if let checkRetryAt = entry.checkRetryAt { deadlines.append(checkRetryAt) }
        }
        return deadlines.filter { $0 > now }.min()
    }

    /// A launch is owed (pending, whenever its period or back-off ends), or one is under way
    /// (handed to the agent, awaiting its outcome, the app's exit or its acknowledgement).
    /// Suspended registrations wait for the app, not for time, so they do not count.
    /// A check owed after a failed one counts too: it may find a change to deliver.
    var hasPendingWork: Bool {
        entries.values.contains { entry in
            if entry.checkRetryAt != nil { return true }
            return switch entry.phase {
            case .idle: entry.pending
            case .suspended: false
            case .handedToAgent, .awaitingOutcome, .waitingForExit, .awaitingAcknowledgement: true
            }
        }
    }

    /// No sooner than the frequency's period after the last launch, nor before the backoff or
    /// the retry of a failed send ends; nil when none applies (never launched, no backoff).
    private func earliestLaunch(of entry: Entry) -> Instant? {
        let afterPeriod = entry.lastLaunch.map { $0 + policy.period(of: entry.frequency) }
        return [afterPeriod, entry.retryNotBefore, entry.sendRetryAt].compactMap { $0 }.max()
    }

    /// `firstRetryDelay`, doubled for each failure after the first, capped at `maximumRetryDelay`.
    func retryDelay(after failures: Int) -> Duration {
        Self.doubling(policy.firstRetryDelay, times: failures - 1, cap: policy.maximumRetryDelay)
    }

    /// `firstBackoff`, doubled for each unacknowledged launch after the first, capped.
    func backoff(after unacknowledged: Int) -> Duration {
        Self.doubling(policy.firstBackoff, times: unacknowledged - 1, cap: policy.maximumBackoff)
    }

    /// `first` doubled `times` times (none for zero or fewer), never past `cap`; stops doubling
    /// at the cap, so a long series cannot overflow.
    private static func doubling(_ first: Duration, times: Int, cap: Duration) -> Duration {
        var wait = first
        for _ in 0..<max(0, times) {
            wait *= 2
            if wait >= cap { return cap }
        }
        return min(wait, cap)
    }
}

private extension BackgroundSchedule.Phase {
    /// Sent to the agent and not yet answered. A launch still `handedToAgent` counts too: an
    /// outcome proves the agent received it, whichever event the loop took first.
    var isAwaitingOutcome: Bool {
        switch self {
        case .awaitingOutcome, .handedToAgent: true
        default: false
        }
    }
}
