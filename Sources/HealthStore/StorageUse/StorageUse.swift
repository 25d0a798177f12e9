import GRDB
import Synchronization

/// How many bytes each app stores, kept in memory, and the bound the user set for it (else the
/// default). The broker refuses an app's writes past its bound (`CallDispatcher`); this type only
/// counts and answers.
///
/// Counting costs a save nothing measurable (two earlier designs did not: per-row triggers made an
/// import 10× slower; a use row written in every transaction added half a durable save's CPU).
/// The writer charges each app's objects as it inserts them (`StoredSize`, kept in the row's
/// `charged` column) and gives that back as it deletes them (`ObjectDeleter`), into a pending list
/// of the transaction; the list is applied to the counts when the transaction commits and dropped
/// when it (or the savepoint of the save that charged it) rolls back. The counts are written to
/// `app_storage` (v66) lazily: in a transaction that already runs, once an app's count has moved
/// by `persistThreshold` since it was last written (`persistDue`), and when the store closes
/// (`persistAll`). A crash therefore loses at most `persistThreshold` of each app's moves: an app
/// may find itself up to that much under (or, after deleting, over) its true use. The store is
/// seeded from those rows when it opens.
///
/// One per broker, shared by every database it opens (a key change or an unlock opens a new one,
/// which seeds it again), so the counts still answer while the store is locked. It hears of commits
/// and rollbacks from the change feed's transaction observer (`CommitWatcher`), the writer's one.
public final class StorageUse: Sendable {
    /// One app's standing, for the manager's listing.
    public struct Entry: Sendable, Equatable {
        public let appID: String
        public let used: Int64
        /// The bound the user set; nil: the default.
        public let setBound: Int64?

        public init(appID: String, used: Int64, setBound: Int64?) {
            self.appID = appID
            self.used = used
            self.setBound = setBound
        }
    }

    struct State {
        var used: [String: Int64] = [:]
        var bounds: [String: Int64] = [:]
        /// What `app_storage.used` holds for each app (committed).
        var persisted: [String: Int64] = [:]
        /// The open transaction's charges, in order (a savepoint's mark is a count of them).
        var pending: [Charge] = []
        /// `app_storage.used` rows the open transaction wrote.
        var pendingPersisted: [String: Int64] = [:]
        /// Source row ids and the app each is ("" for a source that is no app: imports, the user).
        /// Learnt from committed transactions only: a source row a rolled-back save made may have
        /// its id reused by another source.
        var sourceApps: [Int64: String] = [:]
        /// The sum of the open transaction's charges' sizes, given or taken.
        var pendingMagnitude: Int64 = 0
        /// At least how far any app's count is from what `app_storage` holds: while this and
        /// `pendingMagnitude` stay under the threshold no app's row is due, and a commit spends
        /// no time looking (`persistDue`).
        var driftBound: Int64 = 0
        /// What `driftBound` becomes if the open transaction commits, when `persistDue` looked
        /// at every app in it: the farthest one it left unwritten.
        var driftAfterCommit: Int64?
    }

    /// One charge of the open transaction: `bytes` (negative: given back) to `app`, whose source
    /// row is `sourceID` — to be remembered at the commit when `newSource`.
    struct Charge {
        let app: String
        let sourceID: Int64
        let bytes: Int64
        let newSource: Bool
    }

    let state = Mutex(State())
    /// The bound of an app the user set none for.
    public let defaultBound: Int64
    /// How far an app's count may move before it is written (see the type's comment).
    let persistThreshold: Int64

    public init(defaultBound: Int64 = StorageUse.defaultBytesPerApp, persistThreshold: Int64 = 1 << 20) {
        self.defaultBound = defaultBound
        self.persistThreshold = persistThreshold
    }

    /// The default bound per app: far above what a person's busiest app stores in years (a year
    /// of a watch saving heart rate, steps and energy every minute, 1.6 million samples, counts
    /// about 390 MiB: `store-bench storage 365`, Benchmarks/README.md "Session 20: storage bound"),
    /// far below a disk.
    public static let defaultBytesPerApp: Int64 = 4 << 30

    /// The source ids of apps: anything that is not `@user` or an `@import/…` source (manifest ids
    /// allow no `@`). Those are the user's own data and are never charged.
    public static func chargedApp(_ bundleIdentifier: String) -> String? {
        bundleIdentifier.hasPrefix("@") ? nil : bundleIdentifier
    }

    public func used(appID: String) -> Int64 {
        state.withLock { $0.used[appID, default: 0] }
    }

    public func bound(appID: String) -> Int64 {
        state.withLock { $0.bounds[appID] } ?? defaultBound
    }

    /// The app's use and bound when storing `adding` more bytes would pass the bound; nil when it fits.
    public func excess(appID: String, adding: Int) -> (used: Int64, bound: Int64)? {
        let (used, set) = state.withLock { ($0.used[appID, default: 0], $0.bounds[appID]) }
        let bound = set ?? defaultBound
        return used + Int64(adding) > bound ? (used, bound) : nil
    }

    /// Every app that stores something or has a bound set, by id.
    public var entries: [Entry] {
        state.withLock { state in
            Set(state.used.keys).union(state.bounds.keys).sorted().map {
                Entry(appID: $0, used: state.used[$0, default: 0], setBound: state.bounds[$0])
            }
        }
    }

    /// Replaces the counts and bounds with the store's rows (at open).
    func seed(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT app_id, used, bound FROM app_storage")
        state.withLock { state in
            state = State()
            for row in rows {
                let app: String = row["app_id"]
                let used: Int64 = row["used"]
                state.used[app] = max(0, used)
                state.persisted[app] = used
                if let bound: Int64 = row["bound"] { state.bounds[app] = bound }
            }
        }
    }

    /// Sets `appID`'s bound (nil: back to the default), in `db`'s transaction; its count is written
    /// with it when the app has no row yet.
    func setBound(_ bound: Int64?, appID: String, _ db: Database) throws {
        let used = state.withLock { $0.used[appID, default: 0] }
        try db.execute(sql: """
            INSERT INTO app_storage (app_id, used, bound) VALUES (?, ?, ?)
            ON CONFLICT(app_id) DO UPDATE SET bound = excluded.bound
            """, arguments: [appID, used, bound])
        db.afterNextTransaction(onCommit: { [self] _ in
            state.withLock { state in
                state.bounds[appID] = bound
                if state.persisted[appID] == nil { state.persisted[appID] = used }
            }
        })
    }
}

extension HealthDatabase {
    /// Sets `appID`'s storage bound (nil: the default), durably.
    public func setStorageBound(_ bound: Int64?, appID: String) throws {
        try writer.write { db in try storage.setBound(bound, appID: appID, db) }
    }

    /// Writes every app's count that moved since it was last written: before the store closes
    /// (a lock, a key change, healthd stopping), so a clean close loses nothing.
    public func persistStorageUse() throws {
        try writer.write { db in try storage.persistAll(db) }
    }
}
