import Synchronization
public import HealthModel

/// The grants table in memory, per app, so a call's authorization answers (read scope, save
/// check, status) need no read transaction. `GrantRepository` is the only writer of `grants`
/// and keeps this in step: `apply` invalidates the app's entry before its transaction and again
/// after the commit, and an entry loaded from the store is kept only if no invalidation happened
/// while it was being read (`generation`), so a load that raced a change never stays cached.
/// Once `apply` returns, every later call sees the new grants: revocation stays instant.
///
/// Rows are kept as stored; expiry is still evaluated by the caller at every call
/// (`GrantDecision.effective(at:)`), so a temporary grant needs no cache event to end.
final class GrantCache: Sendable {
    struct Key: Hashable, Sendable {
        let type: String
        let access: AccessKind
    }

    typealias AppGrants = [Key: GrantDecision]

    private struct State {
        var apps: [String: AppGrants] = [:]
        var generation: UInt64 = 0
    }

    /// Installed apps are few; past this many cached apps the cache starts over rather than grow.
    static let maximumApps = 1_024

    private let state = Mutex(State())

    /// The app's grants: from memory, or from `load` (a read of the store), then kept.
    func grants(appID: String, load: () throws -> [GrantDecision]) throws -> AppGrants {
        let (cached, generation) = state.withLock { ($0.apps[appID], $0.generation) }
        if let cached { return cached }
        var loaded: AppGrants = [:]
        for grant in try load() { loaded[Key(type: grant.typeIdentifier, access: grant.access)] = grant }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.apps.count >= Self.maximumApps { state.apps.removeAll() }
            state.apps[appID] = loaded
        }
        return loaded
    }

    /// Forgets the app's grants (before and after a change is committed).
    func invalidate(appID: String) {
        state.withLock { state in
            state.generation &+= 1
            state.apps[appID] = nil
        }
    }
}
