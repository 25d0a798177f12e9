import Foundation
import HealthModel
import HealthStore
import HealthWire
import Synchronization

/// The writes that go on while the store is locked: they land in the pending journal instead of
/// the database, durable before the caller is answered, and are merged at unlock in order.
extension StoreHandle {
    /// Saves validated, canonical `records` under `source` (the one call of the save path):
    /// committed now when the store is open; while locked, sealed into the pending journal with
    /// the UUIDs the app is answered with, which the merge gives the objects.
    ///
    /// A difference from an unlocked save: a record whose sync identifier the store already holds
    /// at the same or a higher version is answered with a fresh UUID (the store's object cannot
    /// be looked up while locked); the merge keeps the stored object, as an unlocked save would.
    ///
    /// `accessLog`, the call's entry, commits in the save's own transaction when the store is open
    /// (`entryCommitted`); while locked it is not written here, and the dispatcher journals it
    /// after the save like any other call's.
    func save(_ records: [SampleRecord], source: SourceRecord,
              accessLog: AccessLogEntryDraft? = nil) async throws -> (uuids: [UUID], entryCommitted: Bool) {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                return (try await database.samples.insert(records, source: source, accessLog: accessLog), accessLog != nil)
            case let .locked(locked):
                let uuids = records.flatMap(\.mintedUUIDs)
                let entry = try PendingEntryCoding.encode(.save(records: records, source: source, uuids: uuids))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(source.bundleIdentifier))
                return (uuids, false)
            }
        }
    }

    /// Deletes `appID`'s objects named by `references` (DeletionService, after the share check):
    /// now when the store is open; while locked, into the pending journal. The locked answer is
    /// the number of distinct objects named — whether they exist and are the app's own is known
    /// only at merge, where a deletion that would have failed deletes nothing (a difference from
    /// an unlocked deletion, which fails with errorInvalidArgument).
    /// `accessLog` as for `save`.
    func delete(_ references: [ObjectReference], appID: String,
                accessLog: AccessLogEntryDraft? = nil) async throws -> (count: Int, entryCommitted: Bool) {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                return (try await database.samples.delete(references, appID: appID, accessLog: accessLog), accessLog != nil)
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(.delete(references: references, appID: appID))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(appID))
                return (Set(references).count, false)
            }
        }
    }

    /// Deletes `appID`'s objects of `typeIdentifier` that `predicate` matches (DeletionService,
    /// after the share check), a workout the predicate names looked up within `workouts`: now
    /// when the store is open; while locked, into the pending journal, resolved at merge against
    /// the store as it then is. The locked answer is 0 — nothing is deleted until the merge, and
    /// the store cannot be read to count what will be — and the call's access-log entry is
    /// written at merge with the number actually deleted (so `entryCommitted` is true either way).
    func deleteMatching(typeIdentifier: String, predicate: SamplePredicate?, appID: String, workouts: ReadScope,
                        accessLog: AccessLogEntryDraft?) async throws -> Int {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                // A lock or key change does not wait for the rest: the deletion stops between two
                // chunks (each committed and logged) and says how far it got.
                let draining = closing.draining
                // Between two chunks, as between two messages of a stream, the deletion takes
                // turns with other apps' waiting large queries (`QueryScheduler.takeTurn`): each
                // chunk's selection may take up to a statement budget.
                let turns = ChunkTurns(slot: QuerySlot.current)
                do {
                    return try await database.samples.deleteMatching(typeIdentifier: typeIdentifier, predicate: predicate, appID: appID,
                                                                     workouts: workouts, accessLog: accessLog,
                                                                     stopRequested: { draining.isDraining },
                                                                     offPool: { chunk in
                                                                         try await turns.beforeChunk()
                                                                         return try await BlockingWork.run(chunk)
                                                                     })
                } catch let cut as DeletionCutShort {
                    throw HKError(.errorDatabaseInaccessible,
                                  "the health store locked (or its key changed) after \(cut.deleted) matching objects were deleted; "
                                      + "delete the rest once it is unlocked")
                }
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(.deleteMatching(typeIdentifier: typeIdentifier, predicate: predicate,
                                                                          appID: appID, workouts: workouts, accessLog: accessLog))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(appID))
                return 0
            }
        }
    }

    /// Associates `appID`'s samples with its workout (WorkoutService): now when the store is open,
    /// after `checkShared` approved the samples' types; while locked, into the pending journal
    /// (the samples' types are in the store: the merge checks them against the grants of the time
    /// of the call, and an association that would have failed then changes nothing).
    func associate(_ sampleUUIDs: [UUID], with workoutUUID: UUID, appID: String,
                   checkShared: @Sendable (HealthDatabase, _ sampleTypes: Set<String>) throws -> Void) async throws {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                let types = try database.samples.ownObjectTypes(sampleUUIDs, appID: appID)
                try checkShared(database, Set(types.values))
                try await database.samples.associate(sampleUUIDs, with: workoutUUID, appID: appID)
            case let .locked(locked):
                try checkShared(locked.grants, [])
                let entry = try PendingEntryCoding.encode(.associate(sampleUUIDs: sampleUUIDs, workoutUUID: workoutUUID, appID: appID))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(appID))
            }
        }
    }

    /// Relates (or unrelates) `app`'s effort sample with a workout or one activity of it
    /// (WorkoutEffortService). Open: the sample must be the app's own, of an effort type it may
    /// share, and the workout visible to it (`WorkoutEffortChanges.apply`); returns the sample's
    /// type. Locked: the store cannot be read to decide any of that, so the call is answered as
    /// made — which tells the app nothing, as the same answer comes for any UUIDs — and sealed
    /// into the pending journal with the app's workout read scope of the moment (from the
    /// grants the locked broker holds); at merge every check is made against the store as it
    /// then is, the share check against the grants merged so far (the user's decisions as of the
    /// call), and a change that would fail then changes nothing. Returns nil (type unknown).
    /// One check is made at once, on grants the app may know: with share permission for neither
    /// effort type the call could never succeed, and fails as an unlocked one would.
    func changeWorkoutEffortRelation(_ change: WorkoutEffortRelationChange, app: AppManifest, relate: Bool) async throws -> String? {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                // Only the app's own object has a type here: another app's sample and an unknown UUID
                // fail alike, before any grant is consulted (the commit looks the sample up again).
                guard let type = try database.samples.ownObjectType(change.sampleUUID, appID: app.id) else {
                    throw HKError(.errorInvalidArgument, "the sample was not found among the samples this app saved")
                }
                try WorkoutEffortRules.checkEffortType(type)
                try database.authorization.checkSave(app: app, types: [type])
                let workouts = try database.authorization.readScope(app: app, type: HKWorkoutTypeIdentifier).scope
                try await database.samples.changeWorkoutEffortRelation(sample: change.sampleUUID, workout: change.workoutUUID,
                                                                       activity: change.activityUUID, appID: app.id,
                                                                       workouts: workouts, relate: relate)
                return type
            case let .locked(locked):
                try Self.checkSharesAnEffortType(app, locked.grants)
                let workouts = try locked.grants.authorization.readScope(app: app, type: HKWorkoutTypeIdentifier).scope
                let entry = try PendingEntryCoding.encode(.workoutEffortRelation(sample: change.sampleUUID, workout: change.workoutUUID,
                                                                                 activity: change.activityUUID, appID: app.id,
                                                                                 workouts: workouts, relate: relate))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(app.id))
                return nil
            }
        }
    }

    /// How an app's journaled write is counted: against its journal bound (`JournalAppends`); the
    /// user's own sources (`@user`) against nobody.
    private func journalCharge(_ bundleIdentifier: String) -> JournalAppends.Charge {
        StorageUse.chargedApp(bundleIdentifier).map { .bounded(app: $0, bound: journalBytesPerApp) } ?? .nobody
    }

    /// An access-log entry of an app's own call counts against that app, unrefused; the manager's
    /// entries and refusals (rate-limited) against nobody.
    private func accessLogCharge(actor: String, appID: String?, action: AccessAction) -> JournalAppends.Charge {
        guard action != .refused, actor == appID, let app = StorageUse.chargedApp(actor) else { return .nobody }
        return .counted(app: app)
    }

    /// Throws the share refusal of the first effort type when the app may share neither.
    private static func checkSharesAnEffortType(_ app: AppManifest, _ grants: HealthDatabase) throws {
        var firstRefusal: (any Error)?
        for type in WorkoutEffortRules.effortTypes {
            do {
                try grants.authorization.checkSave(app: app, types: [type])
                return
            } catch {
                firstRefusal = firstRefusal ?? error
            }
        }
        if let firstRefusal { throw firstRefusal }
    }

    /// Adds validated `locations` to `source`'s unfinished route `builderID` (RouteService, after
    /// the share check): in the store when open, answered with the locations the route holds;
    /// while locked, into the pending journal, answered with the locations journaled for it since
    /// the lock (the SDK does not use the number).
    func insertRouteData(_ locations: [RouteLocation], builderID: UUID, source: SourceRecord) async throws -> Int {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                return try await database.samples.insertRouteData(locations, builderID: builderID, source: source)
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(.routeData(locations: locations, builderID: builderID, source: source,
                                                                     at: Date()))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(source.bundleIdentifier))
                return locked.routes.add(locations, appID: source.bundleIdentifier, builderID: builderID)?.count ?? 0
            }
        }
    }

    /// Finishes `source`'s route `builderID` with its workout: now when the store is open; while
    /// locked, into the pending journal with a UUID minted now, resolved at merge as if finished
    /// then. The locked answer spans the locations journaled for the builder since the lock;
    /// a builder with none (all inserted before the lock) cannot be answered without reading the
    /// store and fails with errorDatabaseInaccessible, like a read.
    func finishRoute(builderID: UUID, workoutUUID: UUID, metadata: [String: MetadataValue], device: DeviceRecord?,
                     source: SourceRecord) async throws -> SampleRecord {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                return try await database.samples.finishRoute(builderID: builderID, workoutUUID: workoutUUID, metadata: metadata,
                                                              device: device, source: source)
            case let .locked(locked):
                guard let summary = locked.routes.summary(appID: source.bundleIdentifier, builderID: builderID) else {
                    throw HKError(.errorDatabaseInaccessible, """
                        the health store is locked and this route's locations were inserted before it was locked;                         finish the route once the user unlocks it (healthctl unlock)
                        """)
                }
                let uuid = UUIDv7.make(startingAt: summary.first)
                let entry = try PendingEntryCoding.encode(.finishRoute(builderID: builderID, workoutUUID: workoutUUID,
                                                                       metadata: metadata, device: device, source: source, uuid: uuid))
                try await JournalAppends.append(entry, to: locked, charging: journalCharge(source.bundleIdentifier))
                locked.routes.remove(appID: source.bundleIdentifier, builderID: builderID)
                var route = SampleRecord(uuid: uuid, typeIdentifier: HKWorkoutRouteTypeIdentifier, startDate: summary.first,
                                         endDate: summary.last, value: .workoutRoute(locationCount: summary.count),
                                         metadata: metadata, device: device)
                route.source = source
                return route
            }
        }
    }

    /// Enables (or changes the frequency of) a background-delivery registration: in the store
    /// when open; while locked, into the pending journal (the launch schedule is reloaded for the
    /// app after the merge: LockService).
    func enableBackgroundDelivery(_ registration: BackgroundDeliveryRegistration) async throws {
        try await writeOrJournal(.enableBackgroundDelivery(registration), charge: journalCharge(registration.appID)) {
            try $0.backgroundDeliveries.enable(registration)
        }
    }

    /// Disables `appID`'s background delivery of `typeIdentifier` (every type's when nil), as
    /// `enableBackgroundDelivery`.
    func disableBackgroundDelivery(appID: String, typeIdentifier: String?) async throws {
        try await writeOrJournal(.disableBackgroundDelivery(appID: appID, typeIdentifier: typeIdentifier), charge: journalCharge(appID)) {
            _ = try $0.backgroundDeliveries.disable(appID: appID, typeIdentifier: typeIdentifier)
        }
    }

    /// `write` to the open store, or `effect` sealed into the pending journal while locked.
    private func writeOrJournal(_ effect: PendingEffect, charge: JournalAppends.Charge,
                                _ write: @Sendable (HealthDatabase) throws -> Void) async throws {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                try write(database)
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(effect)
                try await JournalAppends.append(entry, to: locked, charging: charge)
            }
        }
    }

    /// Applies the user's grant decisions for `appID` (the manager's answer or edit): to the store
    /// when open; while locked, into the pending journal first (durable, so a revocation survives
    /// a crash before unlock) and then to the in-memory copy that answers meanwhile.
    func applyGrants(appID: String, _ decisions: [GrantDecision]) async throws {
        try await withCurrentStore { access in
            switch access {
            case let .open(database):
                try database.grants.apply(appID: appID, decisions)
            case let .locked(locked):
                let now = Date()
                let entry = try PendingEntryCoding.encode(.grants(appID: appID, decisions: decisions, at: now))
                try await JournalAppends.append(entry, to: locked, charging: .nobody)
                try locked.grants.grants.apply(appID: appID, decisions, at: now)
            }
        }
    }

    /// Sets one of `appID`'s switches (direct connections, network access) as the user asked: in
    /// the store when open; while locked, into the pending journal first (durable, so a
    /// withdrawal survives a crash before unlock) and then into the in-memory copy, which is what
    /// identifies connections meanwhile. `then` runs with whichever holds the apps now (the
    /// caller withdraws open direct connections there). Returns false when no such app is installed.
    func setAppAccess(appID: String, _ setting: AppAccessSetting, allowed: Bool,
                      then: @Sendable (HealthDatabase) throws -> Void = { _ in }) async throws -> Bool {
        try await withCurrentStore { access in
            let database: HealthDatabase
            switch access {
            case let .open(open):
                database = open
            case let .locked(locked):
                guard try locked.grants.apps.find(id: appID) != nil else { return false }
                let entry = try PendingEntryCoding.encode(.appAccess(appID: appID, setting: setting, allowed: allowed, at: Date()))
                try await JournalAppends.append(entry, to: locked, charging: .nobody)
                database = locked.grants
            }
            let found = switch setting {
            case .directConnections: try database.apps.setDirectConnections(appID: appID, allowed: allowed)
            case .network: try database.apps.setNetworkAccess(appID: appID, allowed: allowed)
            }
            if found { try then(database) }
            return found
        }
    }

    /// Appends an access-log entry: to the log when the store is open; while locked, to the
    /// pending journal, which the merge appends to the log with the time of the call. Returns
    /// once the entry is durable, so a caller that answers after it answers after the entry.
    ///
    /// Uncancellable: the one way an entry is written outside a write's own transaction, and an
    /// entry is the record of something that already happened (data sent, a refusal answered,
    /// an app launched), so it is written whatever becomes of the task asking for it — a call
    /// its app cancelled, left or was killed during, a long-running query the lock ended. It
    /// runs as a task of its own, which the caller's cancellation does not reach, and without
    /// the caller's task-locals: a long-running query's entry waits for none of its app's query
    /// slots (`ScheduledStoreVisits`, whose wait a cancelled call abandons — the entry then went
    /// to healthd's log instead, `AccessLogCancellationEndToEndTests`), and the call's statement
    /// budget, which its end stops, is not the entry's. An entry is bounded work, like the
    /// checks that run outside the slots.
    func recordAccess(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                      detail: String, at time: Date = Date()) async throws {
        try await Task.detached(priority: Task.currentPriority) {
            try await self.appendAccessEntry(actor: actor, appID: appID, action: action, types: types, count: count, detail: detail,
                                             at: time)
        }.value
    }

    /// `recordAccess`'s write, on its own task.
    private func appendAccessEntry(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                                   detail: String, at time: Date) async throws {
        try await withSaveTarget { access in
            switch access {
            case let .open(database):
                // Group-committed: entries of calls that end together share one commit and fsync.
                try await database.accessLog.appendGrouped(
                    AccessLogEntryDraft(actor: actor, appID: appID, action: action, types: types, detail: detail, date: time),
                    count: count)
            case let .locked(locked):
                let entry = try PendingEntryCoding.encode(.accessLog(actor: actor, appID: appID, action: action, types: types,
                                                                     count: count, detail: detail, at: time))
                try await JournalAppends.append(entry, to: locked, charging: accessLogCharge(actor: actor, appID: appID, action: action))
            }
        }
    }
}

/// The turns a deletion by predicate takes between its chunks: none before the first (the
/// deletion has just been admitted), one before each later one.
private final class ChunkTurns: Sendable {
    private let slot: QuerySlot?
    private let started = Mutex(false)

    init(slot: QuerySlot?) { self.slot = slot }

    func beforeChunk() async throws {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        if !first { try await slot?.takeTurnSuspending() }
    }
}
