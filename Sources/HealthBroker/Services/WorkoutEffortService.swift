import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Workout effort relations (iOS 18): `relateWorkoutEffortSample`, `unrelateWorkoutEffortSample`
/// and `HKWorkoutEffortRelationshipQuery`.
///
/// The rules (SECURITY.md "Workout effort relations"): relating or unrelating needs share
/// permission for the effort sample's type and takes only a sample the app saved itself, and a
/// workout the app can read — a hidden workout, another app's sample and a UUID that does not
/// exist fail alike. While the store is locked the call is journaled and every one of those
/// checks is made at merge (`StoreHandle.changeWorkoutEffortRelation`). A reader sees a relation
/// only as far as it can read both sides (`SampleRepository.workoutEffortRelations`).
enum WorkoutEffortService {
    /// What this query's anchors are sealed for, in place of a set of types (`AnchorSealer`): no
    /// sample type has this identifier, so an anchor of an anchored object query — even one over
    /// the workout and effort types — never opens here, nor one of these there.
    static let anchorScope: Set<String> = ["HKWorkoutEffortRelationshipQuery"]

    static func relate(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        try await change(context, caller, payload, relate: true)
    }

    static func unrelate(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        try await change(context, caller, payload, relate: false)
    }

    private static func change(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], relate: Bool) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try WorkoutEffortRelationChange(wire: payload)
        let type = try await context.store.changeWorkoutEffortRelation(request, app: app, relate: relate)
        // Locked, the sample's type is not known until the merge: the entry names both effort types.
        CallAccessReport.record(appID: app.id, types: (type.map { [$0] } ?? WorkoutEffortRules.effortTypes) + [HKWorkoutTypeIdentifier],
                                count: 1, detail: relate ? "related to a workout" : "unrelated from a workout")
        return MethodTable.Reply(EmptyMessage())
    }

    /// HKWorkoutEffortRelationshipQuery: the relationships after the request's anchor (all of
    /// them without one), then — long-running — one delivery each time a relationship the app
    /// can see changes, each with the anchor to continue from, until the app stops the query.
    /// Each delivery resolves the app's scopes afresh, so a revoked grant applies to the next one;
    /// a wake-up that finds no visible change sends nothing.
    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let request = try WorkoutEffortQuery(wire: payload)
        let report = CallAccessReport.current
        var after = try await openAnchor(context, app: app, request.anchor)
        guard request.longRunning else {
            _ = try await deliver(context, app: app, request, after: after, initial: true, report: report, responder)
            return
        }
        // Subscribed before the first read: a change between that read and the first wait still
        // wakes the loop. Relations concern the effort types (CommitWatcher), workouts the workout type.
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let tokens = ([HKWorkoutTypeIdentifier] + WorkoutEffortRules.effortTypes).map { type in
            context.changes.subscribe(.init(appID: app.id, typeIdentifier: type)) { wake.yield() }
        }
        defer { for token in tokens { context.changes.unsubscribe(token) } }
        after = try await deliver(context, app: app, request, after: after, initial: true, report: report, responder)
        for await _ in wakeups {
            after = try await deliver(context, app: app, request, after: after, initial: false, report: report, responder)
        }
        // The wake-up stream only ends with the call's task: the client cancelled.
        throw CancellationError()
    }

    /// The change number inside the app's anchor (nil for none: from the beginning). Every way an
    /// anchor can be wrong — another app's, another query's, altered, truncated — gets one answer.
    private static func openAnchor(_ context: BrokerContext, app: AppManifest, _ anchor: [UInt8]) async throws -> Int64? {
        guard !anchor.isEmpty else { return nil }
        let cursor = try await context.store.withDatabase { database in
            database.changeFeed.anchors.open(anchor, appID: app.id, typeIdentifiers: anchorScope)
        }
        guard let cursor else { throw HKError(.errorInvalidArgument, "the anchor is not valid for this query") }
        return cursor.change
    }

    /// Reads and sends one delivery; returns the change number the next one continues from. An
    /// update with nothing visible sends nothing; the initial answer always answers. The answer
    /// leaves only while the app's scopes are those it was read under (`StreamVisibility`: the
    /// send may wait for a slow reader); otherwise it is read again under the scopes in force now.
    private static func deliver(_ context: BrokerContext, app: AppManifest, _ request: WorkoutEffortQuery, after: Int64?,
                                initial: Bool, report: CallAccessReport?, _ responder: CallResponder) async throws -> Int64 {
        let types = [HKWorkoutTypeIdentifier] + WorkoutEffortRules.effortTypes
        // One per delivery: a reading again after it went stale is bounded by the first one's
        // snapshot, and its anchor is the first one's.
        let visibility = try await context.store.withDatabase { database in
            try StreamVisibility(app: app, types: types, in: database)
        }
        var rereading = false
        while true {
            let reread = rereading
            let (relations, anchor, through) = try await context.store.withDatabaseOffPool { database in
                // One resolution per reading: the workouts' visibility (which also confines what
                // the predicate names) and each effort type's scope.
                if reread { try visibility.refresh() }
                var samples: [String: ReadScope] = [:]
                for type in WorkoutEffortRules.effortTypes { samples[type] = visibility.scope(type).scope }
                let read = try database.samples.workoutEffortRelations(matching: request.predicate, workouts: visibility.scope(HKWorkoutTypeIdentifier),
                                                                       samples: samples, mostRelevant: request.mostRelevant,
                                                                       maximumSamples: WireLimits.maxObjectsPerCall, after: after,
                                                                       within: visibility.snapshot)
                let anchor = try database.changeFeed.anchors.seal(ChangeCursor(completeThrough: read.through), appID: app.id,
                                                                  typeIdentifiers: anchorScope)
                return (read.relations, anchor, read.through)
            }
            if initial || !relations.isEmpty {
                guard try await responder.send(WorkoutEffortRelations(relations, anchor: anchor).wireBytes(),
                                               ifStillCurrent: visibility.isCurrent) else {
                    rereading = true
                    continue
                }
                if initial {
                    report?.record(appID: app.id, types: types, count: relations.count)
                } else {
                    report?.add(count: relations.count)
                }
            } else if initial {
                report?.record(appID: app.id, types: types, count: 0)
            }
            return through
        }
    }
}
