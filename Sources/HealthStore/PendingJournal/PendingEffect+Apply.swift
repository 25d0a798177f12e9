import Foundation
import GRDB
import HealthModel

/// What merging one entry does, inside the merge's transaction (PendingJournalMerge). The app was
/// answered while locked; an effect that would fail now (an object not the app's own, or gone; a
/// share grant revoked before the call) changes nothing, in a savepoint of its own, so that the
/// entry is still recorded as merged — an unlocked call failing at that moment would have
/// changed nothing either. Each such refusal is counted in `refusals`, per app and reason, for
/// healthd's log and the unlock's report (`MergeRefusals`).
extension PendingEffect {
    /// Applies the effect; returns the app whose background-delivery registrations it changed,
    /// if any (the broker reloads them after the merge).
    func apply(_ db: Database, budgets: MergeBudgets = MergeBudgets(), refusals: inout MergeRefusals) throws -> String? {
        switch self {
        case let .save(records, source, uuids):
            // Refused now when it breaks a rule the locked broker could not check against the
            // store: a workout associating more of the app's routes than the cap
            // (`WorkoutAssociation`), a medication rule (`MedicationRows`) — any HKError the
            // save throws. Like every refused effect, it changes nothing and is counted.
            try Self.unlessRefused(db, appID: source.bundleIdentifier, &refusals) {
                _ = try SampleRepository.write(records, source: source, $0, minting: UUIDSupply(preassigned: uuids))
            }
        case let .delete(references, appID):
            try Self.unlessRefused(db, appID: appID, &refusals) { _ = try SampleRepository.deleteOwned(references, appID: appID, $0) }
        case let .deleteMatching(typeIdentifier, predicate, appID, workouts, accessLog):
            // The entry is written whatever happens, with what was deleted: the call was made.
            // The app's predicate is evaluated under the app's merge budget: past it, this and the
            // app's later deletions by predicate change nothing (the store is offline meanwhile).
            var deleted = 0
            let budget = budgets.budget(for: appID)
            if budget.stop == nil {
                do {
                    try Self.unlessRefused(db, appID: appID, &refusals) {
                        deleted = try SampleRepository.deleteMatchingRows(typeIdentifier: typeIdentifier, predicate: predicate,
                                                                          appID: appID, workouts: workouts, budget: budget, $0)
                    }
                } catch where budget.stop != nil {
                    deleted = 0  // its savepoint rolled back
                }
            }
            if let accessLog { _ = try AccessLogRepository.write(accessLog, count: deleted, db) }
        case let .associate(sampleUUIDs, workoutUUID, appID):
            try Self.unlessRefused(db, appID: appID, &refusals) { db in
                for (index, type) in try SampleRepository.ownObjectTypes(sampleUUIDs, appID: appID, db).enumerated() {
                    guard let type else { continue }  // associateOwned refuses it, naming its position
                    guard try GrantRepository.decision(db, appID: appID, type: type, access: .share) == .authorized else {
                        throw HKError(.errorAuthorizationDenied, "sample \(index + 1)'s type is not shared by this app")
                    }
                }
                try SampleRepository.associateOwned(sampleUUIDs, with: workoutUUID, appID: appID, db)
            }
        case let .workoutEffortRelation(sample, workout, activity, appID, workouts, relate):
            try Self.unlessRefused(db, appID: appID, &refusals) { db in
                // Unknown samples and other types are refused by `apply`, naming the sample.
                if let type = try OwnedObjects.row(db, uuid: sample, appID: appID)?.typeIdentifier,
                   WorkoutEffortRules.effortTypes.contains(type) {
                    let decision = try GrantRepository.decision(db, appID: appID, type: type, access: .share)
                    guard decision == .authorized else {
                        throw HKError(.errorAuthorizationDenied, "the effort sample's type is not shared by this app")
                    }
                }
                try WorkoutEffortChanges.apply(sample: sample, workout: workout, activity: activity, appID: appID,
                                               workouts: workouts, relate: relate, db)
            }
        case let .routeData(locations, builderID, source, date):
            try Self.unlessRefused(db, appID: source.bundleIdentifier, &refusals) {
                _ = try SampleRepository.insertDraftLocations(locations, builderID: builderID, source: source, now: date, $0)
            }
        case let .finishRoute(builderID, workoutUUID, metadata, device, source, uuid):
            try Self.unlessRefused(db, appID: source.bundleIdentifier, &refusals) {
                _ = try SampleRepository.finishDraft(builderID: builderID, workoutUUID: workoutUUID, metadata: metadata,
                                                     device: device, source: source, $0, minting: UUIDSupply(preassigned: [uuid]))
            }
        case let .enableBackgroundDelivery(registration):
            try BackgroundDeliveryRepository.enable(registration, db)
            return registration.appID
        case let .disableBackgroundDelivery(appID, typeIdentifier):
            _ = try BackgroundDeliveryRepository.disable(appID: appID, typeIdentifier: typeIdentifier, db)
            return appID
        case let .appAccess(appID, setting, allowed, date):
            // An app not installed (only possible if removed meanwhile) is skipped, as `found` false.
            switch setting {
            case .directConnections: _ = try AppRepository.setDirectConnections(db, appID: appID, allowed: allowed, at: date)
            case .network: _ = try AppRepository.setNetworkAccess(db, appID: appID, allowed: allowed, at: date)
            }
        case let .grants(appID, decisions, date):
            try GrantRepository.apply(db, appID: appID, decisions, at: date)
        case let .accessLog(actor, appID, action, types, count, detail, date):
            try AccessLogRepository.append(db, actor: actor, appID: appID, action: action, types: types,
                                           count: count, detail: detail, at: date)
        }
        return nil
    }

    /// Runs `body` in a savepoint; a HealthKit refusal rolls it back and is counted for `appID`
    /// in `refusals` (the one place a merged entry's refusal is noted). The writer's one
    /// savepoint (`CachedTransaction.inSavepoint`) takes back the effect's storage charges and
    /// the types it noted for the commit watcher.
    private static func unlessRefused(_ db: Database, appID: String, _ refusals: inout MergeRefusals,
                                      _ body: (Database) throws -> Void) throws {
        do {
            try CachedTransaction.inSavepoint(db) { try body(db) }
        } catch let error as HKError where db.isInsideTransaction {
            // Refused and rolled back alone; when SQLite ended the whole transaction instead, the
            // error goes on and fails the batch (nothing of it was merged).
            refusals.add(appID: appID, error)
        }
    }
}

/// What one merge lets each app's journaled deletions by predicate compute (`StatementBudget`):
/// the same per-statement bound as an unlocked call, and a bound for all of the app's entries
/// together, so a journal of many such entries cannot hold the unlock for hours (s19
/// availability review, finding 1b). Kept per app for the whole merge.
public final class MergeBudgets: @unchecked Sendable {
    // @unchecked: used by the merge's one thread only.
    private var budgets: [String: StatementBudget] = [:]
    let cpuPerStatement: Duration
    let cpuPerApp: Duration

    public init(cpuPerStatement: Duration = .seconds(10), cpuPerApp: Duration = .seconds(20)) {
        self.cpuPerStatement = cpuPerStatement
        self.cpuPerApp = cpuPerApp
    }

    func budget(for appID: String) -> StatementBudget {
        if let budget = budgets[appID] { return budget }
        let budget = StatementBudget(cpuPerStatement: cpuPerStatement, cpuInAll: cpuPerApp, draining: nil)
        budgets[appID] = budget
        return budget
    }

    /// The apps whose deletions the merge stopped, and why.
    public var stopped: [String: StatementBudget.Stop] {
        budgets.compactMapValues(\.stop)
    }
}
