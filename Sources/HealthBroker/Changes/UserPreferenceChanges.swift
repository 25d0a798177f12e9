/// Tells the apps' preference feeds (`UserPreferencesFeedService`) that the user changed a
/// preferred unit. Separate from `ChangeNotifier`, whose wake-ups concern one app's queries of one
/// type: a feed is one app's, for every type, and decides per change whether the app may hear of
/// it — so each post names the type, to the feeds only, never to the app.
final class UserPreferenceChanges: Sendable {
    private let subscribers = Subscriptions<@Sendable (String) -> Void>()

    /// Calls `changed` (from any thread) with the type of every later change, until
    /// `unsubscribe` with the returned token.
    func subscribe(_ changed: @escaping @Sendable (String) -> Void) -> UInt64 {
        subscribers.add(changed)
    }

    func unsubscribe(_ token: UInt64) {
        subscribers.remove(token)
    }

    /// The user set or reset the preferred unit of `typeIdentifier` (committed).
    func post(changedType typeIdentifier: String) {
        for changed in subscribers.values() { changed(typeIdentifier) }
    }
}
