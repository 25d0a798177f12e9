import Foundation
import HealthModel
import HealthStore

/// The reads of one long-running collection query: the collection under the app's read scope as
/// it is now — or, when nothing it depends on can have changed, the finding that its last result
/// still holds.
///
/// A wake-up is cheap when the app cannot see what woke it: with the same consulted rules, source
/// order and grant records, one indexed existence check (`ChangeFeedRepository.hasChanges`, the
/// observer query's), outside the query slots, decides — so another app's hidden save never costs
/// a computation over the app's visible samples, nor a turn of its queue.
struct CollectionWatch: Sendable {
    let context: BrokerContext
    let app: AppManifest
    let spec: StatisticsCollectionSpec
    let type: HKQuantityType

    struct Reading: Sendable {
        /// The recomputed collection; nil when the last one still holds.
        var outcome: StatisticsComputation.Outcome<[StatisticsResult]>?
        var basis: CollectionBasis
        /// The app's scope of the type as this read resolved it: what was computed may be sent
        /// while it is current (`CallResponder.send(_:ifStillCurrent:)`).
        var visibility: StreamVisibility
    }

    /// Computes the collection, unless a result on `basis` still holds. No basis: computes.
    ///
    /// `rereading`: the reading of a delivery a slow client held up until it went stale
    /// (`StreamVisibility.isCurrent`). Computed again under the scope in force now, but only from
    /// what was committed by that delivery's first reading (its `ReadSnapshot`), and with that
    /// reading's change number as its basis: a commit since — the reader's own save included —
    /// is the next delivery's, as it is when nothing went stale. Otherwise whether it came in this
    /// delivery or the next would tell the reader that some app deleted something (any deletion
    /// makes a delivery stale), DESIGN.md §7.3.
    func read(since basis: CollectionBasis?, rereading earlier: StreamVisibility? = nil) async throws -> Reading {
        let typeIdentifier = spec.statistics.typeIdentifier
        // Read before the data, like the change number: a reorder or a decision after this wakes us again.
        let sourceOrderVersion = context.changes.sourceOrderVersion(of: typeIdentifier)
        // An app that sees its own samples only reads one source: a reorder changes nothing it
        // reads, and recomputing anyway told it when the user reordered (privacy review, session
        // 19, finding 6). Its check compares the order its basis was computed under.
        let orderToCheck = basis.map { Self.mergesSources($0.scope.scope) ? sourceOrderVersion : $0.sourceOrderVersion } ?? sourceOrderVersion
        let grantVersion = context.changes.grantRecordVersion(appID: app.id, types: rules.grantTypes(of: typeIdentifier))
        if earlier == nil, let basis,
           let held = try await stillHolds(basis, sourceOrderVersion: orderToCheck, grantVersion: grantVersion) {
            return held
        }
        LongRunningWork.countComputation()
        return try await context.store.withDatabase { database in
            let visibility: StreamVisibility
            if let earlier {
                try earlier.refresh()
                visibility = earlier
            } else {
                visibility = try StreamVisibility(app: app, types: [typeIdentifier], in: database)
            }
            var scope = visibility.scope(typeIdentifier)
            if earlier == nil, let basis, basis.sameRules(as: scope, consulting: rules), basis.grantVersion == grantVersion,
               sourceOrderVersion != basis.sourceOrderVersion {
                // Only the source order changed: recomputed under the last computation's window,
                // so the update holds what the reorder changed and nothing the clock moved —
                // nothing at all when the reordered sources are ones the app cannot see.
                scope = basis.scope
            }
            // The change number before the computation: a commit in between is in the result or
            // found by the next check, never lost. A reading again keeps its delivery's first.
            let change = try visibility.snapshot.change ?? database.changeFeed.currentChange()
            let outcome = try StatisticsComputation.collection(spec, type: type, scope: scope, within: visibility.snapshot, in: database)
            return Reading(outcome: outcome,
                           basis: CollectionBasis(scope: scope, sourceOrderVersion: sourceOrderVersion, grantVersion: grantVersion,
                                                  change: change),
                           visibility: visibility)
        }
    }

    /// Whether a reading under `scope` may merge more than one source, so that the order matters.
    static func mergesSources(_ scope: ReadScope) -> Bool {
        switch scope {
        case .allSources, .recentWindow: true
        case .ownSamples, .ownAndGrantedObjects: false
        }
    }

    /// What the collection's reading consults besides the type's own scope (its predicate's workouts or correlations).
    private var rules: ConsultedRules { ConsultedRules(predicate: spec.statistics.predicate, of: spec.statistics.typeIdentifier) }

    /// The check a wake-up costs when the last result may still hold: the consulted rules, the
    /// order and the grant records unchanged, and — one indexed existence check after the basis's
    /// change number (`ChangeFeedRepository.hasChanges`, the observer query's) — no visible
    /// sample changed. Bounded by what was committed since, so it runs outside the query slots
    /// (`StoreHandle.withDatabaseToCheck`): another app's hidden save costs the reader no turn of
    /// its queue. nil: compute.
    private func stillHolds(_ basis: CollectionBasis, sourceOrderVersion: UInt64, grantVersion: UInt64) async throws -> Reading? {
        let typeIdentifier = spec.statistics.typeIdentifier
        return try await context.store.withDatabaseToCheck { database in
            let visibility = try StreamVisibility(app: app, types: [typeIdentifier], in: database)
            let scope = visibility.scope(typeIdentifier)
            guard basis.carriesOver(to: scope, consulting: rules, sourceOrderVersion: sourceOrderVersion, grantVersion: grantVersion) else {
                return nil
            }
            // No predicate: any visible change of the type recomputes, a superset that cannot
            // miss one the predicate would admit.
            let check = try database.changeFeed.hasChanges(of: typeIdentifier, matching: nil, scope: scope, after: basis.change)
            guard !check.changed else { return nil }
            var held = basis
            held.change = check.through
            return Reading(outcome: nil, basis: held, visibility: visibility)
        }
    }
}
