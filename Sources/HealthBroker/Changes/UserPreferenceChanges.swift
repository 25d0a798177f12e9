import Synchronization

/// Tells the apps' preference feeds (`UserPreferencesFeedService`) that the user changed a
/// preferred unit. Separate from `ChangeNotifier`, whose wake-ups concern one app's queries of one
/// type: a feed is one app's, for every type, and decides per change whether the app may hear of
/// it — so each post names the type, to the feeds only, never to the app.
final class UserPreferenceChanges: Sendable {
    private struct Subscribers {
        var byToken: [UInt64: @Sendable (String) -> Void] = [:]
        var nextToken: UInt64 = 1
    }

    private let subscribers = Mutex(Subscribers())

    /// Calls `changed` (from any thread) with the type of every later change, until
    /// `unsubscribe` with the returned token.
    func subscribe(_ changed: @escaping @Sendable (String) -> Void) -> UInt64 {
        subscribers.withLock { subscribers in
            let token = subscribers.nextToken
            subscribers.nextToken += 1
            subscribers.byToken[token] = changed
            return token
        }
    }

    func unsubscribe(_ token: UInt64) {
        _ = subscribers.withLock { $0.byToken.removeValue(forKey: token) }
    }

    /// The user set or reset the preferred unit of `typeIdentifier` (committed).
    func post(changedType typeIdentifier: String) {
        let callbacks = subscribers.withLock { Array($0.byToken.values) }
        for changed in callbacks { changed(typeIdentifier) }
    }
}
