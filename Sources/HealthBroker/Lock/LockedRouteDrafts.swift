import Foundation
import HealthModel
import Synchronization

/// What the locked store knows of the routes apps are building while it is locked: per app and
/// builder, how many locations were journaled and the first and last of their times — enough to
/// answer `finishRoute` with the route's span without reading the store. Only this lock's
/// locations (in memory, dropped at unlock); a builder that also holds locations from before the
/// lock is answered with this lock's span, and the merge stores the route over all of them.
final class LockedRouteDrafts: Sendable {
    struct Summary: Sendable, Equatable {
        var count: Int
        var first: Date
        var last: Date
    }

    private struct Key: Hashable {
        let appID: String
        let builderID: UUID
    }

    private let drafts = Mutex<[Key: Summary]>([:])

    /// Records `locations` (validated, non-empty) journaled for `appID`'s builder; returns the
    /// builder's summary now.
    @discardableResult
    func add(_ locations: [RouteLocation], appID: String, builderID: UUID) -> Summary? {
        let times = locations.map(\.timestamp)
        guard let first = times.min(), let last = times.max() else { return summary(appID: appID, builderID: builderID) }
        return drafts.withLock { drafts in
            let key = Key(appID: appID, builderID: builderID)
            var summary = drafts[key] ?? Summary(count: 0, first: first, last: last)
            summary.count += locations.count
            summary.first = min(summary.first, first)
            summary.last = max(summary.last, last)
            drafts[key] = summary
            return summary
        }
    }

    func summary(appID: String, builderID: UUID) -> Summary? {
        drafts.withLock { $0[Key(appID: appID, builderID: builderID)] }
    }

    /// Forgets a finished builder (a new builder has a new id; this keeps the table small).
    func remove(appID: String, builderID: UUID) {
        _ = drafts.withLock { $0.removeValue(forKey: Key(appID: appID, builderID: builderID)) }
    }
}
