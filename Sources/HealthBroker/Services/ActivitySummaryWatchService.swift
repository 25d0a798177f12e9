import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Synchronization

/// HKActivitySummaryQuery with an `updateHandler`: the summaries, then, each time a summary the
/// app may see changes, the days that are new or changed, until the app stops the query
/// (CANCEL). Each delivery is one or more `ActivitySummaryBatch`es, the last one marked
/// `deliveryComplete`, so the SDK calls a handler once per delivery.
///
/// Every computation is `ActivitySummaryRepository.summaries` under the read scope for
/// `HKActivitySummaryType` as it is at that moment, and an update is the difference between the
/// days last sent and the new ones. So a change the app may not see leaves the two equal and
/// sends nothing, whatever woke the query; after a grant is revoked or expires (both wake every
/// query of the app) the next computation is of the app's own samples, and the days that differ
/// are sent. A day that loses all its data is not reported: HealthKit's handler receives "new or
/// modified summaries" only.
///
/// A wake-up the app cannot see is cheap: with the same scope, one indexed existence check per
/// summary type (`ChangeFeedRepository.hasChanges`, the observer query's), outside the query
/// slots, decides, so another app's hidden save never costs a computation over the app's visible
/// samples, nor a turn of its queue (§7.3, timing). A decision on the summary type's grant
/// recomputes whatever it decides; one on another type (workouts) changes nothing it reads.
/// The user's goals and move mode are no samples: changing them (`healthctl activity goals set`,
/// `characteristics set`) wakes the query with `ChangeNotifier.post(userSettingsChangedFor:)`,
/// which recomputes for a reader whose scope may show them (`mayShowSettings`) — with the window of the last computation while the rule is the same
/// (`read(…forced:)`), so the update holds the settings' change and nothing the clock moved. Only
/// that post forces it (`subscribeToUserSettings`): a grant change of the app wakes the query
/// through its sample types' subscriptions, and the basis decides, as for any wake-up.
///
/// Flow control, as the statistics collection's (`StatisticsCollectionWatchService`): a delivery
/// is computed only once the client took the last one, each batch leaves only while the scope it
/// was computed under is current, and a delivery a slow client holds up across a grant change is
/// computed again and goes on from the days it was sent — from what was committed by the
/// delivery's first reading only (`read(_:app:context:since:rereading:)`).
enum ActivitySummaryWatchService {
    /// The sample types summaries are computed from (`ActivitySummaryRepository.samples`).
    static let sampleTypes = ActivitySummaryRepository.sampleTypes

    static func watch(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try ActivitySummaryQuerySpec(wire: payload)
        _ = try spec.validatedTimeZone()
        let type = HKObjectType.activitySummaryType().identifier
        let report = CallAccessReport.current

        // Subscribed before the first computation: a commit between it and the first wait still
        // wakes the loop. Settings changes are no commits the change feed can be asked about:
        // they set `settingsChanged`, which forces the next computation.
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let settingsChanged = Mutex(false)
        var tokens = sampleTypes.map { context.changes.subscribe(.init(appID: app.id, typeIdentifier: $0)) { wake.yield() } }
        tokens.append(context.changes.subscribeToUserSettings(.init(appID: app.id, typeIdentifier: type)) {
            settingsChanged.withLock { $0 = true }
            wake.yield()
        })
        defer { for token in tokens { context.changes.unsubscribe(token) } }

        var shown: [CalendarDay: ActivitySummaryRecord] = [:]

        /// Sends the days of `first`'s summaries that are new or changed since `shown` as one
        /// delivery (the initial one even when empty); returns the reading it ended with.
        func deliver(_ first: Reading, initial: Bool) async throws -> Reading {
            var reading = first
            var current = reading.outcome?.summaries ?? []
            var pending = current.filter { shown[$0.day] != $0 }
            // What the app holds once this delivery ends, as far as it was sent.
            var sent: [CalendarDay: ActivitySummaryRecord] = [:]
            var start = 0
            while initial || !pending.isEmpty || !sent.isEmpty {
                let end = min(start + ActivitySummaryService.summariesPerBatch, pending.count)
                let batch = ActivitySummaryBatch(Array(pending[start..<end]), endOfDelivery: end == pending.count)
                guard try await responder.send(batch.wireBytes(), ifStillCurrent: reading.visibility.isCurrent) else {
                    // Computed under a scope no longer in force: again, from what was sent, within
                    // the delivery's first reading's snapshot (later commits are the next delivery's).
                    reading = try await read(spec, app: app, context: context, since: nil, rereading: reading.visibility)
                    current = reading.outcome?.summaries ?? []
                    pending = current.filter { (sent[$0.day] ?? shown[$0.day]) != $0 }
                    start = 0
                    continue
                }
                // Counted as the delivery's first batch leaves: a call that ends before the last
                // (its app gone, stopped or killed mid-delivery) was still sent these.
                if !initial, sent.isEmpty { report?.add(count: reading.outcome?.sampleCount ?? 0) }
                for summary in pending[start..<end] { sent[summary.day] = summary }
                start = end
                if end == pending.count { break }
            }
            // What the app now holds: a day that lost its data is forgotten (even when nothing
            // else changed), so one that gets data again is new, with the values it had before.
            shown = Self.byDay(current)
            return reading
        }

        try await responder.waitUntilReady()
        var reading = try await read(spec, app: app, context: context, since: nil)
        report?.record(appID: app.id, types: [type], count: reading.outcome?.sampleCount ?? 0,
                       detail: "\(reading.outcome?.summaries.count ?? 0) days, with updates")
        reading = try await deliver(reading, initial: true)
        for await _ in wakeups {
            let force = settingsChanged.withLock { changed in
                defer { changed = false }
                return changed
            }
            // Computed only once the client took the last delivery: never ahead of the socket.
            try await responder.waitUntilReady()
            reading = try await read(spec, app: app, context: context, since: reading.basis, forced: force)
            guard reading.outcome != nil else { continue }
            reading = try await deliver(reading, initial: false)
        }
        // The wake-up stream only ends with the call's task: the client cancelled.
        throw CancellationError()
    }

    private static func byDay(_ summaries: [ActivitySummaryRecord]) -> [CalendarDay: ActivitySummaryRecord] {
        Dictionary(summaries.map { ($0.day, $0) }, uniquingKeysWith: { _, last in last })
    }

    struct Reading: Sendable {
        /// The recomputed summaries; nil when the last ones still hold.
        var outcome: ActivitySummaryRepository.Outcome?
        var basis: Basis
        /// The app's scope of activity summaries as this read resolved it (`StreamVisibility`).
        var visibility: StreamVisibility
    }

    /// What the last summaries were computed from: the scope, the version of the summary type's
    /// grant record (`ChangeNotifier.grantRecordVersion`), and the store's change number read
    /// before the computation.
    struct Basis: Sendable {
        var scope: Visibility
        var grantVersion: UInt64 = 0
        var change: Int64

        /// Whether `scope` has the rules the summaries consult (the summary type's own scope, which
        /// their computation reads every source type and the workouts with) as this basis's,
        /// windows' starts aside (`Visibility.consultedRules`): a decision on workouts changes
        /// nothing a summary reads (privacy review, session 19, finding 2).
        func sameRules(as scope: Visibility) -> Bool {
            let rules = ConsultedRules(predicate: nil, of: HKObjectType.activitySummaryType().identifier)
            return scope.consultedRules(rules) == self.scope.consultedRules(rules)
        }
    }

    /// The summaries under the app's scope as it is now — or, when the consulted rule and the
    /// summary type's grant record are the same and no sample of a summary type it admits changed
    /// since `basis`, the finding that the last ones still hold (a check outside the query slots:
    /// `stillHold`). No basis: computes. `rereading`: a stale delivery's reading, computed again
    /// within its first reading's snapshot and keeping that reading's change number as its basis
    /// (`CollectionWatch.read(since:rereading:)` says why).
    ///
    /// `forced`: computes even when the basis still holds (the user's settings changed), and
    /// under the basis's scope when the rule is the same: the window where the last computation
    /// had it, so a forced update carries no day that only the clock changed.
    static func read(_ spec: ActivitySummaryQuerySpec, app: AppManifest, context: BrokerContext, since basis: Basis?,
                     forced: Bool = false, rereading earlier: StreamVisibility? = nil) async throws -> Reading {
        let type = HKObjectType.activitySummaryType().identifier
        // Read before the data: a decision after this wakes us again.
        let grantVersion = context.changes.grantRecordVersion(appID: app.id, types: [type])
        // The user's settings changed: forced only for a reader whose scope may show them. One that
        // cannot sees `.hidden` before and after, and computing anyway told it when the user set
        // goals or move mode (privacy review, session 19, finding 6).
        let forced = forced && (basis.map { Self.mayShowSettings($0.scope.scope) } ?? true)
        if earlier == nil, !forced, let basis, basis.grantVersion == grantVersion,
           let held = try await stillHold(basis, app: app, context: context) {
            return held
        }
        LongRunningWork.countComputation()
        return try await context.store.withDatabase { database in
            let visibility: StreamVisibility
            if let earlier {
                try earlier.refresh()
                visibility = earlier
            } else {
                visibility = try StreamVisibility(app: app, types: [type], in: database)
            }
            var scope = visibility.scope(type)
            if forced, let basis, basis.sameRules(as: scope), basis.grantVersion == grantVersion { scope = basis.scope }
            // The change number before the computation: a commit in between is in the result or
            // found by the next check, never lost. A reading again keeps its delivery's first.
            let change = try visibility.snapshot.change ?? database.changeFeed.currentChange()
            let outcome = try database.activitySummaries.summaries(spec, scope: scope, within: visibility.snapshot)
            return Reading(outcome: outcome, basis: Basis(scope: scope, grantVersion: grantVersion, change: change), visibility: visibility)
        }
    }

    /// Whether a reading under `scope` may show the user's goals and move mode: only one that
    /// admits the user's own source on some day (`ActivitySummaryRepository.settings` shows them
    /// where it does); an app's own samples, with or without per-object grants, never do.
    static func mayShowSettings(_ scope: ReadScope) -> Bool {
        switch scope {
        case .allSources, .recentWindow: true
        case .ownSamples, .ownAndGrantedObjects: false
        }
    }

    /// Whether the last summaries still hold: the same rule (a window's start moving with the
    /// clock is no reason to recompute: `CollectionBasis.carriesOver` says why) and no visible
    /// change of a summary type since the basis — one indexed existence check per type, bounded by
    /// what was committed since, outside the query slots (`StoreHandle.withDatabaseToCheck`).
    /// nil: compute.
    private static func stillHold(_ basis: Basis, app: AppManifest, context: BrokerContext) async throws -> Reading? {
        try await context.store.withDatabaseToCheck { database in
            let type = HKObjectType.activitySummaryType().identifier
            let visibility = try StreamVisibility(app: app, types: [type], in: database)
            let scope = visibility.scope(type)
            guard basis.sameRules(as: scope) else { return nil }
            // Each check is its own read: the basis advances only to the earliest number they
            // were all current at, so a commit between two checks is found next time.
            var through: Int64?
            for sampleType in sampleTypes {
                let check = try database.changeFeed.hasChanges(of: sampleType, matching: nil, scope: scope, after: basis.change)
                if check.changed { return nil }
                through = min(through ?? check.through, check.through)
            }
            var held = basis
            held.change = through ?? basis.change
            return Reading(outcome: nil, basis: held, visibility: visibility)
        }
    }
}
