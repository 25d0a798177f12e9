import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKAnchoredObjectQuery: the added samples and deleted objects of one type — or, with
/// `queryDescriptors:`, of several types as one feed in change order — after an anchor, then
/// (for a long-running query) one delivery each time something the app may see changes.
///
/// Each delivery reads the app's read scope of every type afresh (`readScope` →
/// `SampleSQL.visibility`, for additions and deletions alike), so a grant revoked while the
/// query runs applies to the next delivery; the grants-changed wake-up makes that delivery
/// happen at once if anything became visible. Changes the scope hides never produce a message,
/// and the anchor that moves past them is sealed (`AnchorSealer`, bound to the app and the set
/// of types), so neither reveals them. A query over several types is the same query with more
/// parts: one code path, one anchor, each type under its own scope.
///
/// The limit counts samples and deleted objects together, per delivery, as HealthKit's does.
/// A long-running query whose delivery was cut short by its limit delivers the rest at once, in
/// further updates of at most `limit` each.
enum AnchoredQueryService {
    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try AnchoredQuerySpec(wire: payload)
        let parts = try AnchoredParts(spec.descriptors)
        let feed = AnchoredFeed(context: context, app: app, spec: spec, parts: parts, responder: responder,
                                report: CallAccessReport.current)
        var cursor = try await feed.openAnchor()
        guard spec.longRunning else {
            _ = try await feed.deliver(after: cursor, initial: true)
            return
        }
        // Subscribed before the first read: a commit between that read and the first wait
        // still wakes the loop (a wake-up finding nothing new sends nothing).
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let tokens = parts.typeIdentifiers.map { type in
            context.changes.subscribe(.init(appID: app.id, typeIdentifier: type)) { wake.yield() }
        }
        defer { for token in tokens { context.changes.unsubscribe(token) } }
        var step = try await feed.deliver(after: cursor, initial: true)
        cursor = step.cursor
        while !step.reachedEnd {
            step = try await feed.deliver(after: cursor, initial: false)
            cursor = step.cursor
        }
        // Up to where a wake-up's check found nothing visible; the cursor stays where the last
        // delivery ended. A grant change of the app checks from the cursor again: rows after it
        // that the last check passed over as hidden may be visible now.
        var checkedThrough = cursor.change
        var grants = VisibilityEpoch.shared.mark(appID: app.id).grants
        for await _ in wakeups {
            let mark = VisibilityEpoch.shared.mark(appID: app.id).grants
            if mark != grants { checkedThrough = cursor.change }
            grants = mark
            let check = try await feed.visibleChange(after: checkedThrough)
            guard check.changed else {
                checkedThrough = check.through
                continue
            }
            repeat {
                step = try await feed.deliver(after: cursor, initial: false)
                cursor = step.cursor
            } while !step.reachedEnd
            checkedThrough = cursor.change
        }
        // The wake-up stream only ends with the call's task: the client cancelled.
        throw CancellationError()
    }
}

/// One anchored query's deliveries: reading its changes in scope and sending them.
private struct AnchoredFeed {
    let context: BrokerContext
    let app: AppManifest
    let spec: AnchoredQuerySpec
    let parts: AnchoredParts
    let responder: CallResponder
    let report: CallAccessReport?

    struct Step: Sendable {
        let cursor: ChangeCursor
        let reachedEnd: Bool
    }

    /// The cursor inside the app's anchor (the origin for none). Every way an anchor can be
    /// wrong — another app's, another type's, altered, truncated — gets the same answer.
    func openAnchor() async throws -> ChangeCursor {
        guard !spec.anchor.isEmpty else { return .origin }
        let opened = try await context.store.withDatabase { database in
            database.changeFeed.anchors.open(spec.anchor, appID: app.id, typeIdentifiers: parts.typeSet)
        }
        guard let opened else { throw HKError(.errorInvalidArgument, "the anchor is not valid for this query") }
        return opened
    }

    /// Whether a change the app may see now happened after change number `change` in one of the
    /// query's parts (its type, predicate and scope as resolved now; a visible effort relation
    /// counts too, a superset of what a delivery reads). A wake-up asks this before it reads a
    /// delivery: the check is bounded by what was committed since (`ChangeFeedRepository.hasChanges`),
    /// so it takes no query slot (`StoreHandle.withDatabaseToCheck`) — a hidden save costs the
    /// app no turn of its queue (privacy review, session 19, finding 5) — and only a delivery
    /// that has something to send is read in one.
    func visibleChange(after change: Int64) async throws -> (changed: Bool, through: Int64) {
        try await context.store.withDatabaseToCheck { database in
            var through: Int64?
            for descriptor in parts.descriptors {
                let scope = try database.authorization.readScope(app: app, type: descriptor.typeIdentifier)
                let check = try database.changeFeed.hasChanges(of: descriptor.typeIdentifier, matching: descriptor.predicate,
                                                               scope: scope, after: change, includingWorkoutEffortRelations: true)
                if check.changed { return (true, check.through) }
                through = min(through ?? check.through, check.through)
            }
            return (false, through ?? change)
        }
    }

    /// Sends the visible changes after `cursor` (at most `spec.limit`) as one delivery: batches
    /// of at most `WireLimits.samplesPerBatch(types:)` objects and about `WireLimits.resultBatchBytes`
    /// (`AnswerBatching`), the last one marked and carrying the new anchor. An update with nothing visible sends nothing; the initial results always answer.
    ///
    /// A batch is read only when it can be handed to the socket at once (`CallResponder.isReady`),
    /// and it leaves only while the app's scopes are those it was read under (`StreamVisibility`);
    /// otherwise it is read again from the same cursor under the scopes in force now. The wait
    /// for a slow reader is outside the store (`waitUntilReady`): a lock or key change drains the
    /// store, and a delivery that waited for its client inside it held the drain until it failed
    /// (30 s), whatever the user did (StalledStreamKindsEndToEndTests).
    func deliver(after cursor: ChangeCursor, initial: Bool) async throws -> Step {
        if initial { report?.record(appID: app.id, types: parts.typeIdentifiers) }
        var progress = Progress(cursor: cursor, remaining: spec.limit, sent: 0, visibility: nil)
        while true {
            try await responder.waitUntilReady()
            let (step, made) = try await context.store.withDatabase { database in
                try deliverWhileReady(database, initial: initial, from: progress)
            }
            if let step { return step }
            progress = made
        }
    }

    /// Where a delivery is: the cursor after its last batch sent, the limit left, objects sent,
    /// and the delivery's `StreamVisibility` once its first visit made it: kept across visits so
    /// that every batch of the delivery is read within its first reading's snapshot.
    struct Progress: Sendable {
        var cursor: ChangeCursor
        var remaining: Int
        var sent: Int
        var visibility: StreamVisibility?
    }

    /// Reads and sends batches from `progress` while the peer keeps up; returns the step once the
    /// delivery is over, or nil and how far it got when the socket has no room for the next batch.
    private func deliverWhileReady(_ database: HealthDatabase, initial: Bool, from progress: Progress) throws -> (Step?, Progress) {
        // Every type under its own scope, resolved at the delivery's first visit and checked
        // before each batch leaves (`isCurrent`, `refresh`); one snapshot for the whole delivery.
        let visibility = try progress.visibility
            ?? StreamVisibility(app: app, types: parts.typeIdentifiers, in: database)
        func feedParts() -> [FeedPart] {
            parts.descriptors.map { descriptor in
                FeedPart(typeIdentifier: descriptor.typeIdentifier, predicate: descriptor.predicate,
                         visibility: visibility.scope(descriptor.typeIdentifier))
            }
        }
        var current = feedParts()
        var progress = progress
        progress.visibility = visibility
        let batchSize = WireLimits.samplesPerBatch(types: parts.typeIdentifiers)
        while responder.isReady {
            let chunk = progress.remaining > 0 ? min(progress.remaining, batchSize) : batchSize
            // What each step's objects were measured as: the message is built from those bytes.
            let encoded = EncodedSamples()
            // Every batch of the delivery, read again or not, within its first reading's snapshot
            // (`StreamVisibility.snapshot`): later changes go to the next delivery.
            let batch = try database.changeFeed.changes(of: current, after: progress.cursor, limit: chunk,
                                                         batching: AnswerBatching.changes(keptIn: encoded),
                                                         within: visibility.snapshot)
            let last = batch.reachedEnd || (spec.limit > 0 && progress.remaining - batch.count <= 0)
            if last && !(initial || progress.sent + batch.count > 0) {
                // Nothing visible to deliver: nothing is sent, so nothing can be stale.
                return (Step(cursor: batch.cursor, reachedEnd: batch.reachedEnd), progress)
            }
            let anchor = last ? try database.changeFeed.anchors.seal(batch.cursor, appID: app.id, typeIdentifiers: parts.typeSet) : nil
            let message = encoded.anchoredBatch(samples: batch.added, deletedObjects: batch.deleted, endOfDelivery: last,
                                                anchor: anchor ?? [])
            switch try responder.offer(message, ifStillCurrent: visibility.isCurrent) {
            case .stale:
                try visibility.refresh()
                current = feedParts()
                continue
            case .busy:
                return (nil, progress)
            case .sent:
                report?.add(count: batch.count)
                progress.cursor = batch.cursor
                progress.sent += batch.count
                if spec.limit > 0 { progress.remaining -= batch.count }
                if last { return (Step(cursor: progress.cursor, reachedEnd: batch.reachedEnd), progress) }
            }
        }
        return (nil, progress)
    }
}

/// Checks shared by the change-feed methods; they depend only on the request, never on who asks.
enum ChangeQueries {
    /// A type and predicate an app asks about (observer, source query, each anchored
    /// descriptor): `SampleQuerySpec.checkChangeQuery` (HealthModel, where the `query-spec` fuzz
    /// target runs it too), refused when the query is opened, before any store work.
    static func check(_ spec: TypePredicateSpec) throws(HKError) {
        try SampleQuerySpec.checkChangeQuery(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate)
    }

    static func checkSampleType(_ identifier: String) throws(HKError) {
        _ = try HKObjectType.requestedSampleType(identifier)
    }
}
