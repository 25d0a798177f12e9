import HealthStore
import Synchronization

/// Wakes long-running queries (anchored, observer, statistics collections) when something they
/// may care about happened: a committed write touched their type, the user changed their app's
/// grants, or the user reordered their type's sources.
///
/// A wake-up carries no data and promises nothing: the woken query re-reads, within the app's
/// read scope as it is now, what changed since its own cursor, and stays silent when nothing it
/// may see did. That is what keeps hidden writes hidden (a hidden save wakes a denied app's query,
/// which finds nothing and sends nothing) and what makes a revoked grant apply to the next
/// delivery (the grants-changed wake-up makes it re-read under the new scope).
///
/// Posting is synchronous and cheap (a dictionary walk under a lock), because it runs on the
/// store's writer thread right after each commit (`ChangeFeedRepository.onCommit`).
final class ChangeNotifier: Sendable {
    /// What a subscriber is about: one app's queries of one type.
    struct Interest: Sendable, Hashable {
        let appID: String
        let typeIdentifier: String
    }

    private struct Subscriber {
        let interest: Interest
        /// Woken only by `post(userSettingsChangedFor:)` of its type (`subscribeToUserSettings`).
        var userSettingsOnly = false
        let wake: @Sendable () -> Void
    }

    private let subscribers = Subscriptions<Subscriber>()
    /// How many times each quantity type's source order changed since start-up.
    private let sourceOrderVersions = Mutex<[String: UInt64]>([:])
    /// How many times the user decided (or changed) each app's grant of each type since start-up.
    private let grantRecordVersions = Mutex<[Interest: UInt64]>([:])

    /// Calls `wake` (from any thread) for every later change concerning `interest`, until
    /// `unsubscribe` with the returned token.
    func subscribe(_ interest: Interest, wake: @escaping @Sendable () -> Void) -> UInt64 {
        subscribers.add(Subscriber(interest: interest, wake: wake))
    }

    /// Calls `wake` for every later `post(userSettingsChangedFor:)` of `interest`'s type, and for
    /// nothing else — not for a grant change of the app, which wakes every other subscription of
    /// it. A query that recomputes whatever it finds when its settings change (the activity-summary
    /// watch) must not do so at a grant change: that would send an update at the instant the user
    /// touched any of its app's grants, a read decision of another type included (DESIGN.md §7.2).
    /// Until `unsubscribe` with the returned token.
    func subscribeToUserSettings(_ interest: Interest, wake: @escaping @Sendable () -> Void) -> UInt64 {
        subscribers.add(Subscriber(interest: interest, userSettingsOnly: true, wake: wake))
    }

    func unsubscribe(_ token: UInt64) {
        subscribers.remove(token)
    }

    /// A committed write: wakes every query of a type it touched.
    func post(_ change: CommittedChange) {
        wake { change.concerns($0.typeIdentifier) }
    }

    /// The user changed `appID`'s grants (any type): its queries re-read under the new scope.
    /// Also for grants that change by themselves, such as one that expires.
    func post(grantsChangedFor appID: String) {
        wake { $0.appID == appID }
    }

    /// The user decided or changed `appID`'s grants of `types` — whatever the decision: moves
    /// each type's grant-record version, then wakes the app's queries as above. A watch whose
    /// reading consults one of these types recomputes at this, allowed or denied alike
    /// (`grantRecordVersion`): recomputing only when its scope widened told the app that the user
    /// had allowed it (DESIGN.md §7.2; privacy review, session 19, finding 2).
    func post(grantsChangedFor appID: String, types: some Sequence<String>) {
        grantRecordVersions.withLock { versions in
            for type in types { versions[Interest(appID: appID, typeIdentifier: type), default: 0] &+= 1 }
        }
        post(grantsChangedFor: appID)
    }

    /// Changes with every `post(grantsChangedFor:types:)` naming one of `types` for `appID`: a
    /// watch keeps it in its basis and recomputes when it moved.
    func grantRecordVersion(appID: String, types: [String]) -> UInt64 {
        grantRecordVersions.withLock { versions in
            types.reduce(0) { $0 &+ versions[Interest(appID: appID, typeIdentifier: $1), default: 0] }
        }
    }

    /// The user reordered a type's sources: statistics of that type merge differently now, so
    /// its queries re-read (those that do not merge find nothing new).
    func post(sourceOrderChangedFor typeIdentifier: String) {
        sourceOrderVersions.withLock { $0[typeIdentifier, default: 0] += 1 }
        wake { $0.typeIdentifier == typeIdentifier }
    }

    /// The user changed a setting that is no sample but part of what `typeIdentifier`'s queries
    /// answer (activity goals and move mode, for `HKActivitySummaryType`): they recompute.
    func post(userSettingsChangedFor typeIdentifier: String) {
        wake(userSettings: true) { $0.typeIdentifier == typeIdentifier }
    }

    /// Changes with every `post(sourceOrderChangedFor:)` of the type: a query that merges sources
    /// compares it to tell whether its last result may be out of date without any sample change.
    func sourceOrderVersion(of typeIdentifier: String) -> UInt64 {
        sourceOrderVersions.withLock { $0[typeIdentifier, default: 0] }
    }

    /// Wakes the subscribers `matches` selects; a settings-only one only when `userSettings`.
    private func wake(userSettings: Bool = false, where matches: (Interest) -> Bool) {
        for subscriber in subscribers.values(where: { (userSettings || !$0.userSettingsOnly) && matches($0.interest) }) {
            subscriber.wake()
        }
    }
}
