public import Foundation
public import HealthModel

/// What one pending-journal entry does to the store when it is merged. The broker turns an
/// entry's plaintext into one of these (the encoding is the broker's: wire messages); the store
/// applies it in the same transaction that records the entry as merged.
public enum PendingEffect: Sendable {
    /// A save accepted while locked, validated then: written as `SampleRepository.insert` would
    /// (sync-identifier upserts resolved at merge, in journal order) with the UUIDs the app was
    /// given, one per record followed by its correlation's samples.
    case save(records: [SampleRecord], source: SourceRecord, uuids: [UUID])
    /// A deletion by UUID accepted while locked: at merge, all or none, as `SampleRepository.delete`
    /// — if one of the objects is not `appID`'s (or no longer exists) nothing is deleted, nor if a
    /// correlation among them holds a type the app may not share as of the merge (the grants merged
    /// so far: the user's decisions as of the call; `OwnCorrelationShares`).
    case delete(references: [ObjectReference], appID: String)
    /// Grants the user decided while locked (answered a request, granted, revoked), applied at
    /// merge in their place among the saves, with the time they were decided.
    case grants(appID: String, decisions: [GrantDecision], at: Date)
    /// `deleteObjects(of:predicate:)` accepted while locked: resolved at merge against the store as
    /// it then is (every earlier entry applied), only `appID`'s own objects, a workout the
    /// predicate names looked up within `workouts` (the app's read scope for workouts when it
    /// called); of a correlation type, nothing if a matched correlation holds a type the app may
    /// not share then (as `.delete`). `accessLog` is the call's entry, written at merge with the
    /// number deleted then.
    case deleteMatching(typeIdentifier: String, predicate: SamplePredicate?, appID: String, workouts: ReadScope,
                        accessLog: AccessLogEntryDraft?)
    /// `add(_:to:)` accepted while locked: at merge, all or none, as an unlocked call would be
    /// then — `appID`'s own workout and samples, each sample's type shared by the app (checked
    /// against the grants as merged so far, i.e. the user's decisions as of the call; a temporary
    /// grant that expired in between counts as expired, as for a call made at merge).
    case associate(sampleUUIDs: [UUID], workoutUUID: UUID, appID: String)
    /// `relateWorkoutEffortSample` (or, `relate` false, `unrelateWorkoutEffortSample`) accepted
    /// while locked: at merge, as an unlocked call would be then — `appID`'s own effort sample of
    /// a type it shares (the grants merged so far), a workout visible within `workouts` (the
    /// app's read scope for workouts when it called) as the store then is; otherwise nothing.
    case workoutEffortRelation(sample: UUID, workout: UUID, activity: UUID?, appID: String, workouts: ReadScope, relate: Bool)
    /// Locations an `HKWorkoutRouteBuilder` inserted while locked (validated then), added at merge
    /// to the builder's unfinished route with the time they were inserted.
    case routeData(locations: [RouteLocation], builderID: UUID, source: SourceRecord, at: Date)
    /// A route finished while locked: resolved at merge as if finished then — from every location
    /// the builder holds by then, attached to its workout (saved before the lock or while locked,
    /// earlier in the journal) — with the UUID the app was answered with. One that would fail
    /// then (no such workout, locations outside it) stores nothing.
    case finishRoute(builderID: UUID, workoutUUID: UUID, metadata: [String: MetadataValue], device: DeviceRecord?,
                     source: SourceRecord, uuid: UUID)
    /// Background delivery enabled (or its frequency changed) while locked.
    case enableBackgroundDelivery(BackgroundDeliveryRegistration)
    /// Background delivery disabled while locked: one type's, or every type's when nil.
    case disableBackgroundDelivery(appID: String, typeIdentifier: String?)
    /// The user's switch for an app's direct connections or its network access, set while
    /// locked (applied to the in-memory copy at once, to the store at merge).
    case appAccess(appID: String, setting: AppAccessSetting, allowed: Bool, at: Date)
    /// An access-log entry of a call made while locked, with the time of the call.
    case accessLog(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                   detail: String, at: Date)
}

/// Which of an app's switches an `appAccess` entry sets.
public enum AppAccessSetting: String, Sendable {
    case directConnections, network
}
