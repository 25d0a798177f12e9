import HealthModel
import HealthStore
import Synchronization

/// The one place an answer sent in more than one frame asks, before each frame, whether what it
/// computed is still what its app may see (SECURITY.md, "Leak channels" and "A second reading is
/// bounded by the first"). A client that stops reading parks its query (`QueryScheduler`) for as long as it
/// keeps reading slowly; without this, rows read before the user revoked the type, narrowed its
/// window, revoked a per-object grant or deleted them went on being sent from the old reading.
///
/// Holds the app's read scopes of the answer's types, resolved by `AuthorizationEngine.readScope`
/// (the one rule), and the `VisibilityEpoch` mark they were resolved under. `isCurrent` is true
/// while no grant of the app changed, no object left the store and the scopes resolve to the
/// same rules again (no expiry): then everything computed under `scopes` may still be sent, for
/// a lock and a few lookups in memory. Otherwise the stream
/// drops the frame it computed, `refresh`es, and computes it again from the last position it
/// sent, under the scopes in force now — so from that frame on the app gets what it would get had
/// the data it lost never been there, and never an error saying it lost access (a single object
/// it lost — a series, a route — ends its stream as a missing one would have begun it).
///
/// Streams call `isCurrent` through `CallResponder.send(_:ifStillCurrent:)` (or its synchronous
/// form), after any wait for the peer and right before the frame is queued.
///
/// Every reading of the answer after its first is bounded by the first (`snapshot`): computed
/// again, it is the first reading less what the app lost and what left the store, never more.
/// Whether a stream reads again depends on other apps' hidden deletions (the mark above moves
/// with every deletion in the store); what a second reading holds must not, or an app that stalls
/// an answer and saves a sample of its own meanwhile would see that sample in the answer exactly
/// when some app deleted something (DESIGN.md §7.3). Changes after the snapshot belong to the next
/// delivery, as they do when nothing went stale.
final class StreamVisibility: Sendable {
    private struct State {
        var mark: VisibilityEpoch.Mark
        var scopes: [String: Visibility]
        /// Set by `refresh`, cleared by the next `isCurrent`: the frame it checks was read just
        /// after the scopes were resolved again.
        var freshlyRead = false
    }

    /// The store's change number at the answer's first reading: every reading of the answer
    /// passes it to the store (`within:`), which records it at the first and bounds the others.
    let snapshot = ReadSnapshot()

    private let app: AppManifest
    private let types: [String]
    private let authorization: AuthorizationEngine
    private let state: Mutex<State>

    init(app: AppManifest, types: [String], authorization: AuthorizationEngine) throws {
        self.app = app
        self.types = types
        self.authorization = authorization
        // The mark first: a change racing the reading below moves it, and the next check looks again.
        let mark = VisibilityEpoch.shared.mark(appID: app.id)
        state = Mutex(State(mark: mark, scopes: try Self.resolve(types, app: app, authorization)))
    }

    /// The scope of `type`, one of the answer's types, as last resolved.
    func scope(_ type: String) -> Visibility {
        state.withLock { $0.scopes[type] } ?? .ownSamples(appID: app.id)
    }

    /// Whether what was computed under the scopes last resolved may still be sent: no grant of
    /// the app changed and no object left the store since (the mark), and the scopes resolve to
    /// the same rules now — a temporary grant that expired meanwhile does not. A window's start
    /// moving with the clock alone changes no rule: a window is the one in force when the query
    /// read, as for every query (narrowing it is a grant change, and moves the mark).
    ///
    /// Progress: the first frame read after a `refresh` is sent even if objects left the store
    /// meanwhile (its rows are as fresh as any query's that races a deletion). Otherwise another
    /// app deleting its own objects in a loop — any app may — could keep a reader's stream
    /// re-reading without ever sending. Grants change only by the user's hand, so a moved grants
    /// mark always re-reads.
    func isCurrent() throws -> Bool {
        let (mark, scopes, freshlyRead) = state.withLock { state in
            defer { state.freshlyRead = false }
            return (state.mark, state.scopes, state.freshlyRead)
        }
        let now = VisibilityEpoch.shared.mark(appID: app.id)
        guard now.grants == mark.grants, freshlyRead || now.objectsLeft == mark.objectsLeft else { return false }
        return try Self.resolve(types, app: app, authorization).mapValues(\.clockFree) == scopes.mapValues(\.clockFree)
    }

    /// The scopes in force now, after `isCurrent` said no.
    func refresh() throws {
        let mark = VisibilityEpoch.shared.mark(appID: app.id)
        let scopes = try Self.resolve(types, app: app, authorization)
        state.withLock { $0 = State(mark: mark, scopes: scopes, freshlyRead: true) }
    }

    private static func resolve(_ types: [String], app: AppManifest,
                                _ authorization: AuthorizationEngine) throws -> [String: Visibility] {
        var scopes: [String: Visibility] = [:]
        for type in types { scopes[type] = try authorization.readScope(app: app, type: type) }
        return scopes
    }
}
