import Foundation
import HealthModel
import HealthStore
import HealthWire
import Logging

/// The task that carries out background delivery: keeps one change subscription per
/// registration, decides for each wake-up whether the app may see a change, feeds the
/// `BackgroundSchedule`, and hands due launches to the agent.
///
/// Privacy: a registration's check is the observer query's (`DeliveryRecheck`, under the app's
/// read scope as it is now, after the registration's own cursor) — so a change the app may not
/// see (another app's save of a type whose read the app was denied) never makes it pending,
/// and therefore never launches it. The cursor moves past hidden changes too, so a later grant
/// does not turn old hidden changes into a launch. The same check runs again at the moment a
/// launch is handed to the agent, from the cursor before the first change that made it
/// pending: a launch owed under grants the user has since revoked (or that expired, or whose
/// window narrowed) is withdrawn, whether it waited for its frequency, a back-off or an agent.
struct BackgroundDeliveryLoop {
    typealias Key = BackgroundSchedule.Key

    /// A registration's subscription and how far its changes were checked.
    private struct Watch {
        let token: UInt64
        var checkedThrough: Int64
        /// The cursor before the first visible change not yet taken by the app (nil: nothing
        /// owed): a launch is re-checked from here when it is sent.
        var owedAfter: Int64?
    }

    let coordinator: BackgroundDeliveryCoordinator
    let store: StoreHandle
    let changes: ChangeNotifier
    let observers: ObserverRegistry
    let logger: Logger
    var schedule: BackgroundSchedule
    private var watches: [Key: Watch] = [:]
    /// What the store holds of each registration's schedule (`persistChanges` keeps it equal).
    private var persisted: [Key: BackgroundScheduleRecord] = [:]
    private var armed: (deadline: ContinuousClock.Instant, timer: Task<Void, Never>)?
    private var nextRequestID: UInt64 = 1

    init(coordinator: BackgroundDeliveryCoordinator, store: StoreHandle, changes: ChangeNotifier, observers: ObserverRegistry,
         logger: Logger, schedule: BackgroundSchedule) {
        self.coordinator = coordinator
        self.store = store
        self.changes = changes
        self.observers = observers
        self.logger = logger
        self.schedule = schedule
    }

    mutating func run(_ events: AsyncStream<BackgroundDeliveryCoordinator.Event>) async {
        for await event in events {
            switch event {
            case let .registrationsChanged(appID):
                await reload(appID: appID)
            case .registrationsWoken:
                for key in coordinator.takeWokenKeys().sorted() { await check(key) }
            case let .acknowledged(key, through):
                await acknowledge(key, through: through)
            case .agentAttached:
                schedule.noteAgentAttached()
            case .deadline, .observerEnded:
                // An ended observer releases its hold: `launchDue` below sees it.
                break
            case let .dispatched(request):
                schedule.noteDispatched(appID: request.appID, typeIdentifiers: request.typeIdentifiers, now: .now)
            case let .outcome(outcome, request):
                await apply(outcome, of: request)
            case let .undelivered(requests):
                for request in requests {
                    schedule.noteUndelivered(appID: request.appID, typeIdentifiers: request.typeIdentifiers)
                }
            }
            let now = ContinuousClock.now
            schedule.expire(now: now)
            // Checks that failed earlier (the store was locked) are due again by the clock,
            // whatever the event: no change of the type need come to retry them.
            for key in schedule.checksDue(now: now) { await check(key) }
            await launchDue(now: now)
            await persistChanges()
            arm(after: now)
            coordinator.publishPendingWork(schedule.hasPendingWork)
        }
    }

    // MARK: Registrations

    /// Brings the watches of `appID` (every app's when nil) in line with the store: subscribes
    /// new registrations (from the current change on: earlier changes are not theirs), drops
    /// removed ones, and passes frequencies to the schedule.
    private mutating func reload(appID: String?) async {
        let registrations: [BackgroundDeliveryRegistration]
        let records: [Key: BackgroundScheduleRecord]
        do {
            (registrations, records) = try await store.withDatabase { database in
                let records = try database.backgroundDeliveries.scheduleRecords()
                return (try database.backgroundDeliveries.registrations(appID: appID),
                        Dictionary(records.map { (Key(appID: $0.appID, typeIdentifier: $0.typeIdentifier), $0) }) { first, _ in first })
            }
        } catch {
            logger.error("background delivery: cannot read registrations", metadata: ["error": "\(type(of: error))"])
            return
        }
        let wanted = Dictionary(registrations.map { (Key(appID: $0.appID, typeIdentifier: $0.typeIdentifier), $0.frequency) },
                                uniquingKeysWith: { first, _ in first })
        for key in watches.keys where (appID == nil || key.appID == appID) && wanted[key] == nil {
            if let watch = watches.removeValue(forKey: key) { changes.unsubscribe(watch.token) }
            schedule.unregister(key)
            persisted[key] = nil
        }
        var added: [Key: UInt64] = [:]
        for (key, frequency) in wanted {
            schedule.register(key, frequency: frequency)
            guard watches[key] == nil else { continue }
            let coordinator = coordinator
            added[key] = changes.subscribe(.init(appID: key.appID, typeIdentifier: key.typeIdentifier)) { coordinator.wake(key) }
        }
        guard !added.isEmpty else { return }
        // Subscribed first, then the cursor read: a commit in between is seen by both, never by neither.
        let current = (try? await store.withDatabase { try $0.changeFeed.currentChange() }) ?? 0
        for (key, token) in added.sorted(by: { $0.key < $1.key }) {
            guard let record = records[key] else {
                watches[key] = Watch(token: token, checkedThrough: current)
                continue
            }
            // A previous run's state: its cursor, what was owed, the launch history; then a check
            // from that cursor finds changes committed after it and before this start.
            watches[key] = Watch(token: token, checkedThrough: record.checkedThrough, owedAfter: record.owedAfter)
            persisted[key] = record
            let clock = Self.clockNow()
            schedule.restore(key, pending: record.owedAfter != nil, lastLaunch: record.lastLaunch.map { clock.monotonic($0) },
                             unanswered: record.unanswered, retryNotBefore: record.retryNotBefore.map { clock.monotonic($0) },
                             suspended: record.suspended)
            await check(key)
        }
    }

    // MARK: Persistence

    /// Writes, in one transaction, the schedule state of every registration whose state changed
    /// since it was last written (a new registration's cursor included), after each event: a
    /// kill at any point finds the last state on restart, and a change committed after that
    /// state's cursor is found by the restart's first check.
    private mutating func persistChanges() async {
        let clock = Self.clockNow()
        var changed: [BackgroundScheduleRecord] = []
        for (key, watch) in watches {
            guard let entry = schedule.entries[key] else { continue }
            let record = BackgroundScheduleRecord(
                appID: key.appID, typeIdentifier: key.typeIdentifier, checkedThrough: watch.checkedThrough,
                owedAfter: entry.pending ? (watch.owedAfter ?? watch.checkedThrough) : nil,
                lastLaunch: entry.lastLaunch.map { clock.wall($0) }, unanswered: entry.unacknowledgedLaunches,
                retryNotBefore: entry.retryNotBefore.map { clock.wall($0) }, suspended: entry.phase == .suspended)
            // The cursor alone moves with every commit: written only along with a real change.
            var comparable = record
            if let old = persisted[key] { comparable.checkedThrough = old.checkedThrough }
            guard persisted[key] == nil || persisted[key].map({ Self.sameState($0, comparable) }) == false else { continue }
            changed.append(record)
        }
        guard !changed.isEmpty else { return }
        do {
            try await store.withDatabase { try $0.backgroundDeliveries.saveSchedule(changed) }
            for record in changed { persisted[Key(appID: record.appID, typeIdentifier: record.typeIdentifier)] = record }
        } catch {
            logger.error("background delivery: cannot persist the schedule", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// Equal but for instants converted back and forth (within a millisecond).
    private static func sameState(_ a: BackgroundScheduleRecord, _ b: BackgroundScheduleRecord) -> Bool {
        func close(_ x: Date?, _ y: Date?) -> Bool {
            switch (x, y) {
            case (nil, nil): true
            case let (x?, y?): abs(x.timeIntervalSince(y)) < 0.001
            default: false
            }
        }
        return a.checkedThrough == b.checkedThrough && a.owedAfter == b.owedAfter && a.unanswered == b.unanswered
            && a.suspended == b.suspended && close(a.lastLaunch, b.lastLaunch) && close(a.retryNotBefore, b.retryNotBefore)
    }

    /// The monotonic and the wall clock read together, to convert between them.
    private struct ClockPair {
        let instant: ContinuousClock.Instant
        let date: Date

        func wall(_ other: ContinuousClock.Instant) -> Date {
            let offset = instant.duration(to: other)
            return date.addingTimeInterval(Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18)
        }

        func monotonic(_ other: Date) -> ContinuousClock.Instant {
            instant.advanced(by: .milliseconds(Int64((other.timeIntervalSince(date) * 1000).rounded())))
        }
    }

    private static func clockNow() -> ClockPair { ClockPair(instant: .now, date: Date()) }

    /// Whether `key`'s app may see a change of the type since the last check; if so, and no
    /// observer query of the app receives it, the registration becomes pending.
    private mutating func check(_ key: Key) async {
        guard let watch = watches[key] else { return }
        let verdict: DeliveryRecheck.Verdict
        do {
            verdict = try await store.withDatabase { database in
                try DeliveryRecheck.check(database, appID: key.appID, typeIdentifier: key.typeIdentifier, predicate: nil,
                                          after: watch.checkedThrough)
            }
        } catch {
            // The cursor stays, and the check is due again after a delay (or at the next
            // wake-up, whichever comes first): the same changes are checked again.
            logger.warning("background delivery: check failed", metadata: ["app": "\(key.appID)", "error": "\(type(of: error))"])
            schedule.noteCheckFailed(key, now: .now)
            return
        }
        schedule.noteChecked(key)
        watches[key]?.checkedThrough = verdict.through
        guard verdict.changed, verdict.app?.allowsBackgroundDelivery == true else { return }
        // Pending even while an observer query of the app runs: that query is sent the change,
        // but it is delivered only once the app acknowledges it (`acknowledge`). An app that
        // exits between receiving an update and calling its completion handler is launched
        // for it when its query ends; until then `launchDue` holds the launch.
        if watches[key]?.owedAfter == nil { watches[key]?.owedAfter = watch.checkedThrough }
        schedule.noteVisibleChange(key)
    }

    /// The app acknowledged an observer update of the type decided from the changes through
    /// `through`: those are delivered. Changes after it that this loop already found visible
    /// are not — they are owed again, checked from `through` (a later update of the running
    /// query may take them; if it is never acknowledged, a launch does).
    private mutating func acknowledge(_ key: Key, through: Int64) async {
        schedule.noteAcknowledged(key)
        guard let watch = watches[key] else { return }
        watches[key]?.owedAfter = nil
        watches[key]?.checkedThrough = through
        if through < watch.checkedThrough { await check(key) }
    }

    // MARK: Launches

    /// Hands every due launch to the agent, if one is attached; the executable comes from the
    /// manifest as installed now. This is the moment of sending: each type of the launch is
    /// re-checked (`recheck`) and those no longer owed are withdrawn.
    private mutating func launchDue(now: ContinuousClock.Instant) async {
        guard coordinator.launches.hasAgent else { return }
        let observers = observers
        let due = schedule.takeDue(now: now) { observers.isObserving(appID: $0.appID, typeIdentifier: $0.typeIdentifier) }
        for (appID, dueTypes) in due {
            var types: [String] = []
            var app: AppManifest?
            for type in dueTypes {
                let key = Key(appID: appID, typeIdentifier: type)
                switch await recheck(key) {
                case let .owed(owedTo):
                    types.append(type)
                    app = owedTo
                case .withdrawn:
                    schedule.noteWithdrawn(key)
                    watches[key]?.owedAfter = nil
                case .unknown:
                    schedule.noteSendFailed(appID: appID, typeIdentifiers: [type], now: now)
                }
            }
            guard let app, !types.isEmpty else { continue }
            let request = LaunchRequest(requestID: nextRequestID, appID: appID, executable: app.executable, typeIdentifiers: types)
            nextRequestID += 1
            if !coordinator.launches.offer(request) {
                logger.warning("background launch not sent: the agent refused it; retried after a delay", metadata: ["app": "\(appID)"])
                schedule.noteSendFailed(appID: appID, typeIdentifiers: types, now: now)
            }
        }
    }

    private enum Recheck {
        /// Still owed, to the app as installed now.
        case owed(AppManifest)
        /// No longer owed: revoked, expired, out of the window, uninstalled or not entitled.
        case withdrawn
        /// The store could not be read: the launch stays pending, retried after a delay.
        case unknown
    }

    /// Whether a launch for `key` is still owed: its app still has the entitlement and may
    /// still see a change after the cursor before the first change that made it pending.
    private func recheck(_ key: Key) async -> Recheck {
        guard let watch = watches[key] else { return .withdrawn }
        let cursor = watch.owedAfter ?? watch.checkedThrough
        do {
            let verdict = try await store.withDatabase { database in
                try DeliveryRecheck.check(database, appID: key.appID, typeIdentifier: key.typeIdentifier, predicate: nil, after: cursor)
            }
            guard verdict.changed, let app = verdict.app, app.allowsBackgroundDelivery else { return .withdrawn }
            return .owed(app)
        } catch {
            logger.warning("background delivery: re-check failed", metadata: ["app": "\(key.appID)", "error": "\(type(of: error))"])
            return .unknown
        }
    }

    /// What the agent did: the schedule follows it, and only a launch that happened reaches
    /// the access log (DESIGN.md §7.9: the user sees when healthd had an app started, and for
    /// which types — not what it merely asked for).
    private mutating func apply(_ outcome: LaunchOutcome, of request: LaunchRequest?) async {
        let now = ContinuousClock.now
        let metadata: Logger.Metadata = ["app": "\(outcome.appID)", "request": "\(outcome.requestID)", "pid": "\(outcome.pid)"]
        switch (outcome.kind, request) {
        case let (.launched, request?):
            schedule.noteLaunched(appID: request.appID, typeIdentifiers: request.typeIdentifiers, now: now)
            await recordLaunch(request, pid: outcome.pid)
        case let (.alreadyRunning, request?):
            logger.notice("background launch skipped: the app still runs; relaunched when it exits", metadata: metadata)
            schedule.noteStillRunning(appID: request.appID, typeIdentifiers: request.typeIdentifiers)
        case let (.failed, request?):
            logger.warning("background launch failed", metadata: metadata.merging(["reason": "\(outcome.detail)"]) { $1 })
            schedule.noteLaunchFailed(appID: request.appID, typeIdentifiers: request.typeIdentifiers, now: now)
        case (.exited, _):
            logger.info("background-launched app exited", metadata: metadata.merging(["status": "\(outcome.exitStatus)"]) { $1 })
            schedule.noteExited(appID: outcome.appID, now: now)
        default:
            break
        }
    }

    private func recordLaunch(_ request: LaunchRequest, pid: Int32) async {
        logger.notice("background launch", metadata: [
            "app": "\(request.appID)", "types": "\(request.typeIdentifiers.count)", "request": "\(request.requestID)", "pid": "\(pid)",
        ])
        do {
            // Through the one access-log path that journals while locked (an app launched for a
            // delivery made before the lock can start after it).
            try await store.recordAccess(actor: AccessLogEntry.brokerActor, appID: request.appID, action: .launch,
                                         types: request.typeIdentifiers, count: 1,
                                         detail: "background delivery: launched (launch request \(request.requestID))")
        } catch {
            logger.error("access log append failed", metadata: ["action": "launch", "error": "\(type(of: error))"])
        }
    }

    /// Wakes the loop at the schedule's next deadline (one timer, replaced when it moves).
    private mutating func arm(after now: ContinuousClock.Instant) {
        let next = schedule.nextDeadline(after: now)
        guard next != armed?.deadline else { return }
        armed?.timer.cancel()
        armed = next.map { deadline in
            let coordinator = coordinator
            return (deadline, Task {
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
                coordinator.deadlinePassed()
            })
        }
    }
}
