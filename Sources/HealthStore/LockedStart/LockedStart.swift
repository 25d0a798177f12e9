import Foundation
import GRDB

/// A store served locked from the start (`healthd --start-locked`): the grants copy restored from
/// `locked-start.snapshot`, the next pending journal opened for appending with the public key the
/// snapshot carries, and the store directory's lock — all without the data key or the passcode.
/// The private half of that journal's key stays inside the encrypted store: nothing journaled
/// is readable before the unlock, which merges it (PendingJournalMerge).
///
/// Refuses, with a `LockedStartError` naming the file and saying to start once with the
/// passcode, a snapshot that is missing, older than the store's grants generation, altered or
/// sealed with another machine key.
public final class LockedStart: Sendable {
    /// The apps and grants, in memory; the snapshot follows its changes (`LockedStartWriter`).
    public let grants: HealthDatabase
    public let journal: PendingJournal
    private let lock: StoreLock

    /// `onSnapshotFailure` hears of a snapshot rewrite that failed after a grant changed while
    /// started locked (`keepLockedStartSnapshot`).
    public static func open(directory: String,
                            onSnapshotFailure: @escaping @Sendable (LockedStartError) -> Void = { _ in }) throws(LockedStartError) -> LockedStart {
        let layout: StoreLayout
        let lock: StoreLock
        do {
            layout = try StoreLayout(directory: directory, create: false)
            lock = try StoreLock(layout)
        } catch {
            throw .store(error)
        }
        let path = LockedStartFiles.snapshotPath(layout.directory)
        let machineKey: SecretBytes
        do {
            machineKey = try MachineKey.load(layout)
        } catch {
            throw .machineKey(error)
        }
        guard let (generation, plaintext) = try LockedStartFiles.readSnapshot(layout.directory, machineKey: machineKey) else {
            throw .snapshotMissing(path: path)
        }
        let storeGeneration = try LockedStartFiles.generation(layout.directory)
        guard generation >= storeGeneration else {
            throw .snapshotStale(path: path, generation: generation, storeGeneration: storeGeneration)
        }
        let snapshot = try LockedStartSnapshot.decode(plaintext, path: path)
        let grants: HealthDatabase
        let next: LockedStartKeys.Next
        do {
            grants = try HealthDatabase(writer: try DatabaseQueue())
            next = try grants.writer.write { db in
                try snapshot.restore(into: db, path: path)
                return try Self.nextJournal(db, path: path)
            }
        } catch let error as LockedStartError {
            throw error
        } catch {
            throw .snapshotMalformed(path: path, reason: "its rows do not fit this store's schema")
        }
        let journal: PendingJournal
        do {
            journal = try PendingJournal.openForAppending(directory: layout.directory, generation: next.generation,
                                                           publicKey: next.publicKey)
        } catch {
            throw .journal(error)
        }
        // Grants changed while started locked reach the snapshot: a second locked start serves them.
        grants.keepLockedStartSnapshot(directory: layout.directory, writeNow: false, onFailure: onSnapshotFailure)
        return LockedStart(grants: grants, journal: journal, lock: lock)
    }

    private init(grants: HealthDatabase, journal: PendingJournal, lock: StoreLock) {
        self.grants = grants
        self.journal = journal
        self.lock = lock
    }

    /// Releases the store directory's lock, for the unlock to open the store (its own lock).
    public func releaseStore() {
        lock.release()
    }

    /// The next journal the restored `locked_start` row names (its key row is not in the copy).
    private static func nextJournal(_ db: Database, path: String) throws -> LockedStartKeys.Next {
        guard let row = try Row.fetchOne(db, sql: "SELECT next_journal, next_public_key FROM locked_start WHERE id = 1"),
              let generation = row["next_journal"] as Int64?,
              let publicKey = row["next_public_key"] as Data?,
              publicKey.count == PendingJournalSeal.keyBytes else {
            throw LockedStartError.snapshotMalformed(path: path, reason: "it names no next pending journal")
        }
        return LockedStartKeys.Next(generation: generation, publicKey: [UInt8](publicKey))
    }
}

extension HealthDatabase {
    /// Keeps `locked-start.snapshot` in `directory` equal to this database's apps and grants from
    /// now on (`LockedStartWriter`), writing it at once when `writeNow` (a store just opened).
    /// `onFailure` hears of a snapshot that could not be written after a commit: the change
    /// stands, and a locked start refuses the stale snapshot until the next write succeeds.
    public func keepLockedStartSnapshot(directory: String, writeNow: Bool,
                                        onFailure: @escaping @Sendable (LockedStartError) -> Void) {
        let writer = LockedStartWriter(directory: directory, onFailure: onFailure)
        self.writer.add(transactionObserver: writer, extent: .databaseLifetime)
        guard writeNow else { return }
        do {
            // In a (changeless) write transaction: serialized with the commits that advance the generation.
            try self.writer.write { db in try LockedStartWriter.writeNow(db, directory: directory) }
        } catch let error as LockedStartError {
            onFailure(error)
        } catch {
            onFailure(.fileUnusable(path: LockedStartFiles.snapshotPath(directory), reason: "\(error)"))
        }
    }
}
