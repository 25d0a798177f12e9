import Foundation
import HealthModel
import HealthStore

/// The one place that turns the user's grants into answers: what an app may save, what part of
/// a type's data it may see, what its status calls report. Handlers never read grants directly.
///
/// The rule that hides read denial (DESIGN.md §7.3): an app without read permission sees the
/// store as if it held only the samples that app saved itself. Denied and never-asked look the
/// same, because both map to the same `ReadScope`.
///
/// Temporary grants are evaluated here, against `now`, on every call: an expired grant is denied
/// in every answer (read scope, save check, status, undetermined types), exactly as if the user
/// had revoked it at its expiry; a windowed read grant's window ends at the moment of the query.
struct AuthorizationEngine: Sendable {
    let grants: GrantRepository
    /// The clock expiries and windows are measured against; tests pass a fixed or stepped one.
    var now: @Sendable () -> Date = { Date() }

    /// HKAuthorizationStatus for `type`: the SHARE decision only (§7.2).
    func sharingStatus(app: AppManifest, type: String) throws -> HKAuthorizationStatus {
        switch try decision(app: app, type: type, access: .share) {
        case .notDetermined: .notDetermined
        case .denied: .sharingDenied
        case .authorized: .sharingAuthorized
        }
    }

    /// What a query by `app` over `type` may see (`Visibility`): the part of `type` it covers,
    /// the part of HKWorkoutType — the workouts its predicate may name —, and the part of the
    /// correlations that may hold `type`'s samples — visible only where every type they may hold
    /// is (the narrowest of those scopes). Every read resolves one here, once per read or
    /// delivery (long-running queries again at each delivery), with one clock reading for all
    /// scopes; the store cannot compile a predicate without it.
    func readScope(app: AppManifest, type: String) throws -> Visibility {
        let now = now()
        let scope = try scope(app: app, type: type, at: now)
        // A type no correlation holds has no correlation to hide; own samples, the narrowest
        // scope, stands in (and nil from scopes of different apps cannot happen for one app).
        let correlated = try CorrelationRules.correlatedTypes(of: type).map { try self.scope(app: app, type: $0, at: now) }
        // Only workouts carry values derived from other types; every other read keeps the
        // narrowest default, which no row it returns consults.
        let workoutValues = type == HKWorkoutTypeIdentifier ? try workoutValueScopes(app: app, at: now) : nil
        return Visibility(scope: scope,
                          workouts: try self.scope(app: app, type: HKWorkoutTypeIdentifier, at: now),
                          correlations: ReadScope.narrowest(correlated) ?? .ownSamples(appID: app.id),
                          workoutValues: workoutValues)
    }

    /// The scope of every quantity type a workout's totals and statistics may derive from, with
    /// the same rule and clock reading as the workouts themselves: a workout read shows another
    /// app's energy total only to a reader of active energy (DESIGN.md §7.3). Grants are read
    /// from memory (`GrantCache`), so this is a dictionary lookup per quantity type.
    private func workoutValueScopes(app: AppManifest, at now: Date) throws -> WorkoutValueScopes {
        let own = ReadScope.ownSamples(appID: app.id)
        var byType: [String: ReadScope] = [:]
        for type in Self.quantityTypes {
            let scope = try scope(app: app, type: type, at: now)
            if scope != own { byType[type] = scope }
        }
        return WorkoutValueScopes(byType: byType, others: own)
    }

    private static let quantityTypes = HKObjectType.allTypes.compactMap { ($0 as? HKQuantityType)?.identifier }

    /// What part of `type` `app` may read at `now`. Private: a read needs a whole `Visibility`.
    private func scope(app: AppManifest, type: String, at now: Date) throws -> ReadScope {
        // A correlation type has no grant of its own (`checkReadable`): HealthKit asks for the
        // types it holds. A correlation is visible where every type it may hold is readable —
        // their narrowest scope, the rule of correlation queries (`queryCorrelations`) — so
        // every read of the type (anchored, observer, background delivery, sources) decides
        // it as HKSampleQuery and HKCorrelationQuery do. Its samples share its source and
        // start no earlier than it (`CorrelationRules`), so each is visible under its own type's
        // wider scope too.
        let members = CorrelationRules.memberTypes(of: type)
        if !members.isEmpty {
            let scopes = try members.map { try self.scope(app: app, type: $0.identifier, at: now) }
            return ReadScope.narrowest(scopes) ?? .ownSamples(appID: app.id)
        }
        // Clinical records need the health-records entitlement on top of a grant: without it the
        // app sees only what it saved, which for a type no app may save is nothing — absent, as
        // if the store held no records (a grant made in the manager changes nothing).
        if !app.allowsHealthRecords, HKObjectType.type(forIdentifier: type) is HKClinicalType {
            return .ownSamples(appID: app.id)
        }
        // Read per object (vision prescriptions): no type-wide read grant can exist
        // (`checkReadable`); what the app reads is its own plus the objects the user granted.
        if PerObjectAuthorization.readsByObjectGrants(type) { return .ownAndGrantedObjects(appID: app.id) }
        guard let grant = try grants.grant(appID: app.id, type: type, access: .read)?.effective(at: now),
              grant.decision == .authorized else {
            return .ownSamples(appID: app.id)
        }
        // Read per document (CDA): the type's grant lets the app be offered documents; it reads
        // its own and those the user allowed, each (`PerObjectAuthorization.offeredTypes`). A
        // window on that grant is refused (`GrantLimitsCheck`); one stored before it was hides
        // every other app's document: the user asked for older ones hidden, and which of those
        // they allowed the window cannot say, so none shows rather than all.
        if PerObjectAuthorization.offeredTypes.contains(type) {
            guard grant.limits.dataWindow == nil else { return .ownSamples(appID: app.id) }
            return .ownAndGrantedObjects(appID: app.id)
        }
        guard let windowStart = grant.limits.windowStart(at: now) else { return .allSources }
        return .recentWindow(appID: app.id, since: windowStart)
    }

    /// Throws the HealthKit error for saving a type without share permission (§7.5). Every app
    /// write (save, workout, route, deletion) passes here, so a type no app may write
    /// (`AppWritability`: Apple-computed, system-recorded) is refused here for all of them,
    /// before grants are read: no grant can make it writable, whatever the SDK sent.
    func checkSave(app: AppManifest, types: Set<String>) throws(HKError) {
        if let refusal = AppWritability.saveRefusal(types) { throw refusal }
        for type in types.sorted() {
            let decision: AuthorizationDecision
            do {
                decision = try self.decision(app: app, type: type, access: .share)
            } catch {
                throw HKError(.errorDatabaseInaccessible, "the health store could not be read")
            }
            if let refusal = HKError.shareRefusal(type, decision) { throw refusal }
        }
    }

    /// The types of a request that the user has not decided yet (read and share separately).
    func undetermined(app: AppManifest, _ request: ValidatedAuthorizationRequest) throws -> (read: [String], share: [String]) {
        let read = try request.readTypes.filter { try decision(app: app, type: $0, access: .read) == .notDetermined }
        let share = try request.shareTypes.filter { try decision(app: app, type: $0, access: .share) == .notDetermined }
        return (read, share)
    }

    /// Every grant of `app` as it stands now (expired ones denied, their limits kept), for the
    /// manager's listing.
    func effectiveGrants(appID: String) throws -> [GrantDecision] {
        let now = now()
        return try grants.decisions(appID: appID).map { $0.effective(at: now) }
    }

    /// When the next temporary grant expires (after `instant`, by default now), or nil when none
    /// will. A long-running query must be re-scoped then (its app's grants change at that instant
    /// as if the user had revoked one): `GrantExpiryScheduler` posts a grants-changed event.
    func nextGrantExpiry(after instant: Date? = nil) throws -> Date? {
        try grants.nextExpiry(after: instant ?? now())
    }

    func decision(app: AppManifest, type: String, access: AccessKind) throws -> AuthorizationDecision {
        try grants.decision(appID: app.id, type: type, access: access, at: now())
    }
}

extension HealthDatabase {
    /// The engine over this database's grants.
    var authorization: AuthorizationEngine { AuthorizationEngine(grants: grants) }
}

/// An authorization request whose types are all known and requestable, and whose app manifest
/// carries the usage descriptions the request needs.
struct ValidatedAuthorizationRequest: Sendable, Equatable {
    let readTypes: [String]
    let shareTypes: [String]

    init(app: AppManifest, share: [String], read: [String]) throws(HKError) {
        guard !share.isEmpty || !read.isEmpty else {
            throw HKError(.errorInvalidArgument, "the request names no types")
        }
        guard share.count + read.count <= 512 else {
            throw HKError(.errorInvalidArgument, "a request may name at most 512 types")
        }
        if !share.isEmpty, app.shareUsageDescription == nil {
            throw HKError(.errorInvalidArgument, "\(AppManifest.shareUsageKey) must be set in the app's manifest in order to request share (write) authorization")
        }
        if !read.isEmpty, app.readUsageDescription == nil {
            throw HKError(.errorInvalidArgument, "\(AppManifest.readUsageKey) must be set in the app's manifest in order to request read authorization")
        }
        // HealthKit's check, before any other per-type one: every type apps may not share,
        // named at once (an unknown identifier is reported by `checkShareable` after it).
        if let refusal = AppWritability.shareRefusal(share) { throw Self.explained(refusal) }
        // HealthKit's refusal of a type read per object (vision prescriptions) in a type-wide
        // read set (`PerObjectAuthorization`), every such type named at once, like the share check.
        if let refusal = PerObjectAuthorization.readRefusal(read) { throw refusal }
        for identifier in share {
            try Self.checkShareable(identifier)
        }
        for identifier in read {
            try Self.checkReadable(identifier)
        }
        if let refusal = Self.clinicalReadRefusal(app: app, read: read) { throw refusal }
        shareTypes = Array(Set(share)).sorted()
        readTypes = Array(Set(read)).sorted()
    }

    /// One type the user may grant share permission for (a request's types, the manager's grant
    /// edits): known, and shareable by apps (`AppWritability`).
    static func checkShareable(_ identifier: String) throws(HKError) {
        _ = try known(identifier)
        if let refusal = AppWritability.shareRefusal([identifier]) { throw explained(refusal) }
    }

    /// HealthKit's message, and what to do instead, which HealthKit leaves to its documentation.
    private static func explained(_ refusal: HKError) -> HKError {
        HKError(refusal.code, refusal.message + " (a correlation is shared through the types it holds, e.g. bloodPressureSystolic "
                + "and bloodPressureDiastolic; the activity summary's energy is activeEnergyBurned; characteristics are set by the "
                + "user in the manager; Apple-computed types and clinical records can be requested for reading only)")
    }

    /// HealthKit's refusal of a read set naming clinical types when the app lacks the
    /// health-records entitlement: NSInvalidArgumentException "Authorization to read the
    /// following types is disallowed: HKClinicalTypeIdentifier…" (github.com/EddyVerbruggen/HealthKit
    /// pull 104, dotnet/macios issue 4788, raised by `_throwIfAuthorizationDisallowedForSharing:types:`),
    /// here `errorInvalidArgument` with that message and what to add to the manifest.
    static func clinicalReadRefusal(app: AppManifest, read: [String]) -> HKError? {
        guard !app.allowsHealthRecords else { return nil }
        let clinical = Set(read.filter { HKObjectType.type(forIdentifier: $0) is HKClinicalType }).sorted()
        guard !clinical.isEmpty else { return nil }
        return HKError(.errorInvalidArgument, "Authorization to read the following types is disallowed: "
                       + clinical.joined(separator: ", ") + " (clinical records need \"\(AppManifest.healthKitAccessKey)\": "
                       + "[\"\(AppManifest.healthRecordsAccess)\"] in the app's manifest)")
    }

    /// One type the user may grant type-wide read permission for (a request's types, the
    /// manager's grant edits): not a correlation, and not a type read per object — no grant of
    /// any origin can open every vision prescription at once.
    static func checkReadable(_ identifier: String) throws(HKError) {
        let type = try known(identifier)
        if let refusal = PerObjectAuthorization.readRefusal([identifier]) {
            throw HKError(refusal.code, refusal.message + " (it is read per object: the app asks with "
                          + "requestPerObjectReadAuthorization(for:predicate:) and the user picks the objects)")
        }
        if type is HKCorrelationType {
            throw HKError(.errorInvalidArgument, "authorization to read \(identifier) is requested through the types it contains")
        }
    }

    private static func known(_ identifier: String) throws(HKError) -> HKObjectType {
        guard let type = HKObjectType.type(forIdentifier: identifier) else {
            throw HKError(.errorInvalidArgument, "unknown type identifier \(identifier.prefix(100))")
        }
        return type
    }
}
