import Foundation
import HealthModel
import HealthStore

/// The reads of one long-running collection query: the collection under the app's read scope as
/// it is now — or, when nothing it depends on can have changed, the finding that its last result
/// still holds.
///
/// A wake-up is cheap when the app cannot see what woke it: with the same scope and source order,
/// one indexed existence check (`ChangeFeedRepository.hasChanges`, the observer query's) decides,
/// so another app's hidden save never costs a computation over the app's visible samples.
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
        // Read before the data, like the change number: a reorder after this wakes us again.
        let sourceOrderVersion = context.changes.sourceOrderVersion(of: typeIdentifier)
        return try await context.store.withDatabase { database in
            let visibility: StreamVisibility
            if let earlier {
                try earlier.refresh()
                visibility = earlier
            } else {
                visibility = try StreamVisibility(app: app, types: [typeIdentifier], in: database)
            }
            var scope = visibility.scope(typeIdentifier)
            if earlier == nil, let basis, basis.scope.clockFree == scope.clockFree, sourceOrderVersion != basis.sourceOrderVersion {
                // Only the source order changed: recomputed under the last computation's window,
                // so the update holds what the reorder changed and nothing the clock moved —
                // nothing at all when the reordered sources are ones the app cannot see.
                scope = basis.scope
            }
            if earlier == nil, var basis, basis.carriesOver(to: scope, sourceOrderVersion: sourceOrderVersion) {
                // No predicate: any visible change of the type recomputes, a superset that cannot
                // miss one the predicate would admit.
                let check = try database.changeFeed.hasChanges(of: typeIdentifier, matching: nil, scope: scope, after: basis.change)
                if !check.changed {
                    basis.change = check.through
                    return Reading(outcome: nil, basis: basis, visibility: visibility)
                }
            }
            // The change number before the computation: a commit in between is in the result or
            // found by the next check, never lost. A reading again keeps its delivery's first.
            let change = try visibility.snapshot.change ?? database.changeFeed.currentChange()
            let outcome = try StatisticsComputation.collection(spec, type: type, scope: scope, within: visibility.snapshot, in: database)
            return Reading(outcome: outcome, basis: CollectionBasis(scope: scope, sourceOrderVersion: sourceOrderVersion, change: change),
                           visibility: visibility)
        }
    }
}
