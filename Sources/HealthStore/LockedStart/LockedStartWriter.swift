import GRDB
import Synchronization

/// Keeps `locked-start.snapshot` equal to what the store (or the locked store's grants copy)
/// holds of apps and grants: a transaction observer on the writer, so every change is seen
/// whichever code made it. It watches the one `locked_start` row that the v25 triggers bump on
/// any change to the copied tables (StoreSchema+LockedStart explains why not the tables).
///
/// Order, so that a locked start never serves grants older than a committed change:
/// 1. before the commit (`databaseWillCommit`), the generation file is advanced durably — if that
///    fails the transaction rolls back and the change fails, rather than commit unrecorded;
/// 2. after it (`databaseDidCommit`, on the same connection, before the writer returns — so the
///    caller's reply comes after), the snapshot is rewritten under that generation.
/// A kill between the two leaves a snapshot older than the generation: refused as stale.
final class LockedStartWriter: TransactionObserver, Sendable {
    private struct State {
        var touched = false
        var generation: UInt64?
    }

    private let directory: String
    private let onFailure: @Sendable (LockedStartError) -> Void
    private let state = Mutex(State())

    init(directory: String, onFailure: @escaping @Sendable (LockedStartError) -> Void) {
        self.directory = directory
        self.onFailure = onFailure
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "locked_start"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        state.withLock { $0.touched = true }
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseWillCommit() throws {
        guard state.withLock({ $0.touched }) else { return }
        let generation = try LockedStartFiles.generation(directory) + 1
        try LockedStartFiles.recordGeneration(generation, directory)
        state.withLock { $0.generation = generation }
    }

    func databaseDidCommit(_ db: Database) {
        write(db)
    }

    /// A rollback after the generation advanced (the commit itself failed): the snapshot is
    /// rewritten from the rows as they are again, so it is not left stale.
    func databaseDidRollback(_ db: Database) {
        write(db)
    }

    private func write(_ db: Database) {
        let generation = state.withLock { state -> UInt64? in
            defer { state = State() }
            return state.generation
        }
        guard let generation else { return }
        do {
            try Self.write(db, generation: generation, directory: directory)
        } catch let error as LockedStartError {
            onFailure(error)
        } catch {
            onFailure(.fileUnusable(path: LockedStartFiles.snapshotPath(directory), reason: "\(error)"))
        }
    }

    /// Writes the snapshot of what `db` holds under `generation`.
    static func write(_ db: Database, generation: UInt64, directory: String) throws {
        let plaintext = try LockedStartSnapshot.read(db).encoded()
        let machineKey: SecretBytes
        do {
            machineKey = try MachineKey.loadOrCreate(StoreLayout(directory: directory, create: false))
        } catch {
            throw LockedStartError.machineKey(error)
        }
        try LockedStartFiles.writeSnapshot(plaintext, generation: generation, directory: directory, machineKey: machineKey)
    }

    /// A fresh generation and the snapshot under it, now (a store just opened, whose files may
    /// be from an older healthd or missing).
    static func writeNow(_ db: Database, directory: String) throws {
        let generation = try LockedStartFiles.generation(directory) + 1
        try LockedStartFiles.recordGeneration(generation, directory)
        try write(db, generation: generation, directory: directory)
    }
}
