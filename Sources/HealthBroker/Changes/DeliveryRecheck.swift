import HealthModel
import HealthStore

/// The one rule every observer update and every background launch passes at the moment it is
/// sent (DESIGN.md §7.6, a revoked permission takes effect at once): whether the app, as
/// installed and granted *now*, may see a change of the type after the cursor up to which it
/// was last told — exactly the check a brand-new change gets.
///
/// Deciding once, when the change happens, is not enough: an update held until the app
/// acknowledges the previous one, or a launch waiting for its frequency, a back-off or an
/// agent, would otherwise go out after the user revoked the read permission, after a temporary
/// grant expired or after its window narrowed, because of a change the app may no longer see.
/// So `ObserverQueryService` and `BackgroundDeliveryLoop` call this both when woken and again
/// right before they send.
enum DeliveryRecheck {
    struct Verdict: Sendable {
        /// The app as installed now; nil when it was removed (then nothing is owed to it).
        let app: AppManifest?
        /// Whether a change the app may see now happened after the cursor.
        let changed: Bool
        /// The store's change number at the check: the next check starts there.
        let through: Int64
    }

    /// Reads the app, its read scope and the change feed in `database` as they are now.
    static func check(_ database: HealthDatabase, appID: String, typeIdentifier: String, predicate: SamplePredicate?,
                      after cursor: Int64) throws -> Verdict {
        guard let app = try database.apps.find(id: appID) else {
            return Verdict(app: nil, changed: false, through: try database.changeFeed.currentChange())
        }
        let scope = try database.authorization.readScope(app: app, type: typeIdentifier)
        // A workout effort relation is a change of its sample's type, for a reader who may see it.
        let check = try database.changeFeed.hasChanges(of: typeIdentifier, matching: predicate, scope: scope, after: cursor,
                                                       includingWorkoutEffortRelations: true)
        return Verdict(app: app, changed: check.changed, through: check.through)
    }
}
