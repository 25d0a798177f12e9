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
/// while no grant of the app changed, no object the app could see left the store and the scopes
/// resolve to the same rules again (no expiry): then everything computed under `scopes` may still
/// be sent. Otherwise the stream drops the frame it computed, `refresh`es, and computes it again
/// from the last position it sent, under the scopes in force now — so from that frame on the app
/// gets what it would get had the data it lost never been there, and never an error saying it
/// lost access (a single object it lost — a series, a route — ends its stream as a missing one
/// would have begun it).
///
/// Whether a stream reads again must depend only on what its app can see (DESIGN.md §7.3): a
/// grant of its own changing (the user's hand), or a deletion of a row its scopes admit
/// (`VisibleDeletions`, asked only when the epoch says some object left). Another app's deletion
/// of data the reader cannot see leaves the answer as computed, in its bytes and in its timing:
/// the twin store without that app's data makes the same visible deletions and reads again
/// exactly when this one does. And a reading again must give the twin's bytes: it is bounded
/// by the first (`snapshot`, which the store also applies to every row a predicate consults:
/// `Visibility.through`), and it keeps each type's window where the first reading put it unless
/// the grant itself changed (`refresh`).
///
/// Streams call `isCurrent` through `CallResponder.send(_:ifStillCurrent:)` (or its synchronous
/// form), after any wait for the peer and right before the frame is queued.
///
/// A stream belongs to the open store it first read from. Once a lock or key change has begun
/// closing that store (`StoreLifetime`, marked before the drain), its next message is not sent:
/// `isCurrent` and `refresh` throw `StoreHandle.closedUnderAnswer` — UNAVAILABLE,
/// errorDatabaseInaccessible, the status of every call while the store is locked — before
/// anything else is looked at; a question already being asked holds the close until it ends.
/// Before session 20 a stream sending outside the store after a lock or key change went on as if
/// nothing had closed, and asked the closed side connection whether a visible object had left
/// only when some app had deleted something: with a deletion anyone made, hidden from the reader
/// or not, healthd died (SIGSEGV: SQLite handed a closed handle) or the answer ended INTERNAL,
/// where without one it completed (privacy review, session 19, finding 7).
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
    private let deletions: VisibleDeletions
    /// Whether the store this answer read from is still in service (`StoreLifetime`).
    private let lifetime: StoreLifetime
    private let state: Mutex<State>

    /// How many times an answer was read again since healthd started (every `refresh`): healthd's
    /// status reports it, so a test can count readings again where they begin rather than time them.
    static var readingsAgain: UInt64 { refreshes.load(ordering: .relaxed) }
    private static let refreshes = Atomic<UInt64>(0)

    init(app: AppManifest, types: [String], in database: HealthDatabase) throws {
        self.app = app
        self.types = types
        self.authorization = database.authorization
        self.deletions = database.visibleDeletions
        self.lifetime = database.lifetime
        // The mark first: a change racing the reading below moves it, and the next check looks again.
        let mark = VisibilityEpoch.shared.mark(appID: app.id)
        state = Mutex(State(mark: mark, scopes: try Self.resolve(types, app: app, authorization)))
    }

    /// The scope of `type`, one of the answer's types, as last resolved.
    func scope(_ type: String) -> Visibility {
        state.withLock { $0.scopes[type] } ?? .ownSamples(appID: app.id)
    }

    /// Whether what was computed under the scopes last resolved may still be sent: no grant of
    /// the app changed since (the mark), the scopes resolve to the same rules now — a temporary
    /// grant that expired meanwhile does not — and no object the app could see left the store
    /// after the reading the frame came from. A window's start moving with the clock alone
    /// changes no rule: a window is the one in force when the answer first read (narrowing it is
    /// a grant change, and moves the mark).
    ///
    /// Objects leaving: only when the epoch's count moved is the store asked, on its side
    /// connection, whether a deletion after the last reading's change number is one the app's
    /// scopes admit (`VisibleDeletions`). None: the frame is current, and the mark moves to the
    /// one taken before asking, so a deletion still committing then is looked for again.
    ///
    /// Progress: the first frame read after a `refresh` is sent even if objects left the store
    /// meanwhile (its rows are as fresh as any query's that races a deletion). Otherwise another
    /// app deleting its own visible objects in a loop could keep a reader's stream re-reading
    /// without ever sending. Grants change only by the user's hand, so a moved grants mark
    /// always re-reads.
    ///
    /// The store closing: throws `StoreHandle.closedUnderAnswer` (`inService`), first.
    func isCurrent() throws -> Bool {
        try inService { try isCurrentInService() }
    }

    private func isCurrentInService() throws -> Bool {
        let (mark, scopes, freshlyRead) = state.withLock { state in
            defer { state.freshlyRead = false }
            return (state.mark, state.scopes, state.freshlyRead)
        }
        let now = VisibilityEpoch.shared.mark(appID: app.id)
        guard now.grants == mark.grants else { return false }
        guard try Self.resolve(types, app: app, authorization).mapValues(\.clockFree) == scopes.mapValues(\.clockFree) else {
            return false
        }
        guard now.objectsLeft != mark.objectsLeft, !freshlyRead else { return true }
        // No reading recorded its change number (a stream the store does not bound): every
        // deletion counts, as it did for every stream before.
        guard let reading = snapshot.lastReading,
              try !deletions.anyLeft(of: Self.deletedTypes(scopes), after: reading) else { return false }
        state.withLock { state in
            if state.mark == mark { state.mark = now }
        }
        return true
    }

    /// The scopes in force now, after `isCurrent` said no. Each part of a type's visibility whose
    /// rule is the same as before (`clockFree`) keeps its earlier scope, window start included
    /// (`Visibility.keepingWindows`): reading again because a visible object left, or because a
    /// grant of another part changed (the workouts', a correlated type's), must not also move the
    /// window, or every row of another source that crossed the window's edge since the first
    /// reading would be missing from the rest of the answer — where the twin, which did not read
    /// again, sends it. Kept part by part: kept only when the whole visibility was equal, a
    /// workout decision moved the steps window when it allowed and not when it denied (privacy
    /// review, session 19, finding 2). A grant that changed (or expired) takes effect at once.
    func refresh() throws {
        try inService { try refreshInService() }
    }

    private func refreshInService() throws {
        Self.refreshes.add(1, ordering: .relaxed)
        let mark = VisibilityEpoch.shared.mark(appID: app.id)
        let resolved = try Self.resolve(types, app: app, authorization)
        state.withLock { state in
            var scopes = resolved
            for (type, scope) in resolved {
                if let earlier = state.scopes[type] { scopes[type] = scope.keepingWindows(of: earlier) }
            }
            state = State(mark: mark, scopes: scopes, freshlyRead: true)
        }
    }

    /// Runs `body` while the store this answer read from is in service (`StoreLifetime`: the
    /// close waits for it, so it never asks a closed connection); once a lock or key change began
    /// closing it, throws `StoreHandle.closedUnderAnswer` instead, without running `body`. One end
    /// for every stream, decided by the user's hand alone: not by whether anyone deleted anything,
    /// nor by what.
    private func inService<T>(_ body: () throws -> T) throws -> T {
        guard let result = try lifetime.whileInService(body) else { throw StoreHandle.closedUnderAnswer }
        return result
    }

    /// The sample types whose deletions can remove what an answer of `scopes`' types computed,
    /// each with the scope it was read under: the types themselves, and for activity summaries
    /// the types they are computed from (read under the summary type's scope).
    private static func deletedTypes(_ scopes: [String: Visibility]) -> [String: ReadScope] {
        var deleted: [String: ReadScope] = [:]
        for (type, visibility) in scopes {
            if type == HKObjectType.activitySummaryType().identifier {
                for source in ActivitySummaryRepository.sampleTypes { deleted[source] = visibility.scope }
            } else {
                deleted[type] = visibility.scope
            }
        }
        return deleted
    }

    private static func resolve(_ types: [String], app: AppManifest,
                                _ authorization: AuthorizationEngine) throws -> [String: Visibility] {
        var scopes: [String: Visibility] = [:]
        for type in types { scopes[type] = try authorization.readScope(app: app, type: type) }
        return scopes
    }
}
