import CChangeCapture
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
/// SQLite's pre-update hook on the same connection notes the type of every row inserted or
/// updated in the change tables during the transaction (`ChangeCapture`), whichever code wrote
/// it and however the statement was stepped — through GRDB or directly. After the commit the
/// watcher reads the change number and hands the noted types to the listener before the writer
/// returns — so a save is acknowledged only after its change was announced. A commit that noted
/// nothing (an access-log entry alone, a grant) announces nothing and reads nothing. When the
/// note is incomplete (more types than it holds, or another capture took over the connection)
/// the watcher asks the store instead, as it did after every commit before the capture: which
/// types have rows with a change number above the last one it reported (one seek per stored
/// type in each table's `(type, change)` index). That query, and the read transaction it took,
/// were about a sixth of healthd's instructions for a one-sample save (issue 17,
/// Benchmarks/README.md "Session 20").
///
/// The note may hold more than the query found: a row deleted again before the commit. A type
/// announced for nothing is harmless — every listener re-checks what its reader may see — but it
/// is work a failed save must not cause: a transaction rolled back as a whole announces nothing,
/// and one rolled back to a savepoint (a failed save of a group commit) makes the note incomplete
/// (`ChangeCapture.savepointRolledBack`), so that commit's types come from the query over
/// committed rows.
///
/// It observes no event of GRDB's (`observes(eventsOfKind:)` is false): GRDB tells observers
/// only of rows of statements it runs itself, and the store steps most rows directly.
///
/// It also tells the apps' storage count (`StorageUse`) of every commit and rollback, so the
/// charges of a transaction count once it is committed: one observer, not a second one that
/// GRDB would walk for every statement and transaction.
final class CommitWatcher: TransactionObserver, Sendable {
    private struct State {
        var reportedThrough: Int64
        var listener: (@Sendable (CommittedChange) -> Void)?
        /// `sample_types` identifiers by id, for the noted type ids (a type's row never changes).
        var identifiers: [Int64: String] = [:]
    }

    private let state: Mutex<State>
    private let capture: ChangeCapture
    private let storage: StorageUse?

    /// `storage`: told of every commit and rollback on this connection (nil: a test's bare store).
    init(changeNumber: Int64, storage: StorageUse? = nil) throws {
        state = Mutex(State(reportedThrough: changeNumber))
        capture = try ChangeCapture()
        self.storage = storage
    }

    /// Starts noting, on `db` (the connection this watcher observes), the types written to the
    /// change tables.
    func installCapture(_ db: Database) throws {
        try capture.install(on: db, watching: Self.changeTables)
    }

    /// Replaces the listener (one per store: the broker's notifier).
    func listen(_ listener: @escaping @Sendable (CommittedChange) -> Void) {
        state.withLock { $0.listener = listener }
    }

    /// Objects added and deleted, and workout effort relations made, removed and gone with their
    /// workout (which concern their samples' types: HKWorkoutEffortRelationshipQuery and the
    /// effort types' observers listen to them; each decides what its reader may see): the tables
    /// whose rows carry a change number and a type, which the capture watches and the fallback
    /// query reads.
    private static let changeTables = ["objects", "deleted_objects", "workout_effort_relations", "workout_effort_removals",
                                       "workout_effort_departed"]

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }

    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseDidCommit(_ db: Database) {
        // Every commit, before anything below may return: the transaction's storage charges
        // count now, whether or not it wrote to the change tables.
        storage?.transactionCommitted()
        let noted = capture.take()
        if noted?.isEmpty == true { return }  // nothing written to the change tables
        let (since, listener) = state.withLock { ($0.reportedThrough, $0.listener) }
        let change: CommittedChange
        do {
            // Read straight from SQLite: run after every commit that wrote samples (`BoundStatement`).
            let read = try BoundStatement(db, sql: "SELECT value FROM counters WHERE name = 'change'")
            let now = try read.readFirstRow { $0.int64(0) } ?? since
            let types = try noted.flatMap { try identifiers(of: $0, db) } ?? queriedTypes(since: since, db)
            state.withLock { $0.reportedThrough = max($0.reportedThrough, now) }
            guard !types.isEmpty else { return }  // the fallback query found every change rolled back
            change = CommittedChange(typeIdentifiers: types, change: now)
        } catch {
            change = CommittedChange(typeIdentifiers: nil, change: since)
        }
        listener?(change)
    }

    /// The identifiers of the noted type ids; nil when one is not a stored type (then the
    /// caller queries).
    private func identifiers(of typeIDs: [Int64], _ db: Database) throws -> Set<String>? {
        var known = state.withLock { $0.identifiers }
        if typeIDs.contains(where: { known[$0] == nil }) {
            // A type saved for the first time: read the table again (a few hundred rows at most).
            known = try Dictionary(Row.fetchAll(db, sql: "SELECT id, identifier FROM sample_types").map {
                (row: Row) -> (Int64, String) in (row["id"], row["identifier"])
            }, uniquingKeysWith: { first, _ in first })
            state.withLock { [known] in $0.identifiers = known }
        }
        var identifiers = Set<String>()
        for id in typeIDs {
            guard let identifier = known[id] else { return nil }
            identifiers.insert(identifier)
        }
        return identifiers
    }

    /// Which types have rows with a change number above `since`: the store's own answer, when the
    /// capture's note is incomplete.
    private func queriedTypes(since: Int64, _ db: Database) throws -> Set<String> {
        // Cached: preparing it each time was about 1 % of a batched save's CPU in healthd (issue 17).
        try String.fetchSet(db.cachedStatement(sql: """
            SELECT identifier FROM sample_types WHERE id IN (
                SELECT type_id FROM objects WHERE change_seq > ?1
                UNION SELECT type_id FROM deleted_objects WHERE change_seq > ?1
                UNION SELECT type_id FROM workout_effort_relations WHERE change_seq > ?1
                UNION SELECT type_id FROM workout_effort_removals WHERE change_seq > ?1
                UNION SELECT type_id FROM workout_effort_departed WHERE change_seq > ?1)
            """), arguments: [since])
    }

    func databaseDidRollback(_ db: Database) {
        storage?.transactionRolledBack()
        capture.reset()
    }
}
