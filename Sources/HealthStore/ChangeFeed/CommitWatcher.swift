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
/// it and however the statement was stepped — through GRDB or directly — and the change number it
/// wrote to `counters`. After the commit the watcher hands the noted types and number to the
/// listener before the writer returns — so a save is acknowledged only after its change was
/// announced. Until session 23 it read the number after the commit, a read transaction of its own
/// for every save (issue 17, Benchmarks/README.md "Session 23"); now only when the note is
/// incomplete or holds no number. A commit that noted nothing (an access-log entry alone, a
/// grant) announces nothing and reads nothing.
///
/// The note follows the transaction's savepoints (`CachedTransaction.inSavepoint`, the writer's
/// one savepoint): the types first noted inside a savepoint rolled back (a failed save of a group
/// commit, a refused journal effect) are cut from it, and so is its change number (the value
/// noted before the savepoint is restored), so the commit announces the committed
/// saves' types only, and a failed save causes no work (cipherreview21, finding 4). Until
/// session 22 that rollback made the note incomplete and the watcher asked the store which types
/// had rows above the last reported change number — one index seek per stored type, hidden ones
/// included, in the answer of every save of that commit; any app could make it happen at will
/// with a failing call beside its own save (privreview22, finding 1). No commit queries now: the
/// note is unbounded, and one still incomplete (no memory, another capture installed on the
/// connection) announces "every type" (`typeIdentifiers` nil), whose cost follows the listeners
/// rather than what is stored. The note may hold more than was committed: a row deleted again
/// before the commit. A type announced for nothing is harmless — every listener re-checks what
/// its reader may see.
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
        try capture.watchCounter(on: db, table: "counters", keyColumn: "name", key: "change", valueColumn: "value")
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
        let note = capture.take()
        let noted = note.types
        if noted?.isEmpty == true { return }  // nothing written to the change tables
        let (since, listener) = state.withLock { ($0.reportedThrough, $0.listener) }
        let change: CommittedChange
        do {
            // The number the transaction wrote, as the capture noted it; read from the store only
            // when the note is incomplete (a read transaction after the commit: issue 17).
            let now = try note.counter ?? Self.storedChange(db) ?? since
            // An incomplete note, or a noted id that is not a stored type: every type (see above).
            let types = try noted.flatMap { try identifiers(of: $0, db) }
            state.withLock { $0.reportedThrough = max($0.reportedThrough, now) }
            change = CommittedChange(typeIdentifiers: types, change: now)
        } catch {
            change = CommittedChange(typeIdentifiers: nil, change: since)
        }
        listener?(change)
    }

    /// The change number as committed. Read straight from SQLite (`BoundStatement`).
    private static func storedChange(_ db: Database) throws -> Int64? {
        try BoundStatement(db, sql: "SELECT value FROM counters WHERE name = 'change'").readFirstRow { $0.int64(0) }
    }

    /// The identifiers of the noted type ids; nil when one is not a stored type (then the
    /// commit is announced for every type).
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

    func databaseDidRollback(_ db: Database) {
        storage?.transactionRolledBack()
        capture.reset()
    }
}
