import GRDB
import Synchronization

/// What one committed write changed: the sample types that gained or lost objects, or whose
/// samples gained or lost a workout effort relation.
public struct CommittedChange: Sendable, Equatable {
    /// The types concerned; nil when they could not be worked out (then every listener treats
    /// the change as possibly its own, and re-checks what it may see).
    public let typeIdentifiers: Set<String>?
    /// The store's change number once this write was committed.
    public let change: Int64

    public func concerns(_ typeIdentifier: String) -> Bool {
        typeIdentifiers?.contains(typeIdentifier) ?? true
    }
}

/// The one hook after committed writes: a transaction observer on the writer connection, so
/// every write that adds to `objects` or `deleted_objects` is seen, whichever repository made
/// it (saves, sync replacements, deletions) and however saves were grouped into a commit.
///
/// It notes during the transaction only that one of those tables changed; after the commit it
/// reads, on the same connection, which types have rows with a change number above the last
/// one it reported (one seek per stored type in the `(type, change)` indexes), and hands them to the listener before the
/// writer returns — so a save is acknowledged only after its change was announced.
///
/// It also tells the apps' storage count (`StorageUse`) of every commit and rollback, so the
/// charges of a transaction count once it is committed: one observer, not a second one that
/// GRDB would walk for every statement and transaction.
final class CommitWatcher: TransactionObserver, Sendable {
    private struct State {
        var touched = false
        var reportedThrough: Int64
        var listener: (@Sendable (CommittedChange) -> Void)?
    }

    private let state: Mutex<State>
    private let storage: StorageUse?
    /// The rowid of the change number's row in `counters`. The table also holds the access
    /// log's head (v37), which every logged call rewrites — reads included — and a commit that
    /// changed only the head changed nothing a listener hears of: it must not cost the query
    /// below.
    private let changeCounterRow: Int64

    init(changeNumber: Int64, changeCounterRow: Int64, storage: StorageUse? = nil) {
        state = Mutex(State(reportedThrough: changeNumber))
        self.changeCounterRow = changeCounterRow
        self.storage = storage
    }

    /// Replaces the listener (one per store: the broker's notifier).
    func listen(_ listener: @escaping @Sendable (CommittedChange) -> Void) {
        state.withLock { $0.listener = listener }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        Self.watchedTables.contains(eventKind.tableName)
    }

    /// Objects added and deleted, and workout effort relations made, removed and gone with their
    /// workout (which concern their samples' types: HKWorkoutEffortRelationshipQuery and the
    /// effort types' observers listen to them; each decides what its reader may see). A
    /// relation made is seen through the change number it takes (`counters`):
    /// `workout_effort_relations` is a WITHOUT ROWID table, whose changes SQLite's update hook —
    /// what a transaction observer is told — does not report.
    private static let watchedTables: Set<String> = ["objects", "deleted_objects", "workout_effort_removals", "counters"]

    func databaseDidChange(with event: DatabaseEvent) {
        if event.tableName == "counters" && event.rowID != changeCounterRow { return }  // the access log's head
        state.withLock { $0.touched = true }
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        storage?.transactionCommitted()
        let (touched, since, listener) = state.withLock { state in
            defer { state.touched = false }
            return (state.touched, state.reportedThrough, state.listener)
        }
        guard touched else { return }
        let change: CommittedChange
        do {
            // Cached: run after every commit, preparing them each time was about 1 % of a
            // batched save's CPU in healthd, and more of a one-sample save's (issue 17).
            let now = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM counters WHERE name = 'change'")) ?? since
            let types = try String.fetchSet(db.cachedStatement(sql: """
                SELECT identifier FROM sample_types WHERE id IN (
                    SELECT type_id FROM objects WHERE change_seq > ?1
                    UNION SELECT type_id FROM deleted_objects WHERE change_seq > ?1
                    UNION SELECT type_id FROM workout_effort_relations WHERE change_seq > ?1
                    UNION SELECT type_id FROM workout_effort_removals WHERE change_seq > ?1
                    UNION SELECT type_id FROM workout_effort_departed WHERE change_seq > ?1)
                """), arguments: [since])
            state.withLock { $0.reportedThrough = max($0.reportedThrough, now) }
            guard !types.isEmpty else { return }  // every change was rolled back to its savepoint
            change = CommittedChange(typeIdentifiers: types, change: now)
        } catch {
            change = CommittedChange(typeIdentifiers: nil, change: since)
        }
        listener?(change)
    }

    func databaseDidRollback(_ db: Database) {
        storage?.transactionRolledBack()
        state.withLock { $0.touched = false }
    }
}
