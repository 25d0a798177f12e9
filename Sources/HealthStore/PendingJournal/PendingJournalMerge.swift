import Foundation
import GRDB
import HealthModel

/// Merges the pending journals into the open store, oldest lock first and each in entry order,
/// exactly once even if healthd is killed at any point:
///
/// - entries are applied in batches of `batchSize`: a batch's effects and the advance of its
///   journal's `applied_through` past the batch commit in one transaction, so an entry is either
///   merged and recorded, or neither; a restarted merge skips what is recorded. One durable
///   commit per batch rather than per entry is what makes the merge fast (ARCHITECTURE.md);
/// - once every entry is merged the file is removed (durably), then its key row: a kill between
///   the two leaves a row without a file, which the next merge just removes.
///
/// Runs before the store admits any call (StoreHandle, at unlock and at start-up), so entries
/// resolve sync-identifier upserts against the store as it was when they were saved plus the
/// entries before them — as if they had been saved then.
public enum PendingJournalMerge {
    public struct Report: Sendable, Equatable {
        /// Entries merged now (not those a previous, interrupted merge already applied).
        public var merged = 0
        /// Entries that failed authentication or decoding; their journal is kept (`PendingJournalError.damaged`).
        public var damaged: [PendingJournalError] = []
        /// Apps whose background-delivery registrations merged entries changed.
        public var backgroundDeliveryApps: Set<String> = []

        public init() {}
    }

    /// `decode` turns an entry's plaintext into its effect; a throw counts the entry as damaged.
    public static func merge(_ database: HealthDatabase, directory: String, batchSize: Int = defaultBatchSize,
                             decode: ([UInt8]) throws -> PendingEffect) throws -> Report {
        precondition(batchSize > 0, "a merge batch holds at least one entry")
        var report = Report()
        let writer = database.writer
        // What a lock or a locked start journaled to the next journal merges now, under a new next.
        try LockedStartKeys.retireIfUsed(writer, directory: directory)
        for generation in try writer.read({ try PendingJournalKeys.generations($0) }) {
            let path = PendingJournalFile.path(directory: directory, generation: generation)
            guard let key = try writer.read({ try PendingJournalKeys.load($0, generation: generation) }) else { continue }
            let entries = try PendingJournalFile.entries(path: path, generation: generation) ?? []
            var firstDamaged: UInt64?
            var batch: [(sequence: UInt64, effect: PendingEffect)] = []
            for (sequence, sealed) in entries where sequence > key.appliedThrough {
                let aad = PendingJournalFile.associatedData(generation: generation, sequence: sequence)
                guard let plaintext = try PendingJournalSeal.open(sealed, privateKey: key.privateKey,
                                                                  publicKey: key.publicKey, aad: aad),
                      let effect = try? decode(plaintext) else {
                    firstDamaged = firstDamaged ?? sequence
                    continue  // each entry is sealed on its own: the ones after it still count
                }
                batch.append((sequence, effect))
                if batch.count == batchSize {
                    try apply(batch, generation: generation, writer, into: &report)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try apply(batch, generation: generation, writer, into: &report)
            if let firstDamaged {
                let kept = path + ".damaged"
                do {
                    try StoreFileIO.rename(path, to: kept)
                } catch {
                    throw PendingJournalError.fileUnusable(path: path, reason: error.reason)
                }
                report.damaged.append(.damaged(path: path, sequence: firstDamaged, keptAs: kept))
            } else {
                do {
                    try StoreFileIO.remove(path)
                } catch {
                    throw PendingJournalError.fileUnusable(path: path, reason: error.reason)
                }
            }
            try writer.write { try PendingJournalKeys.remove($0, generation: generation) }
        }
        return report
    }

    /// Opens the journal a lock writes to, with the store still open: the next journal
    /// (`LockedStartKeys`, made now if the store has none), created or continued.
    public static func begin(_ database: HealthDatabase, directory: String) throws -> PendingJournal {
        let next = try LockedStartKeys.next(database.writer)
        return try PendingJournal.openForAppending(directory: directory, generation: next.generation, publicKey: next.publicKey)
    }

    /// Entries per merge transaction. Large enough that the commit's fsync is paid rarely, small
    /// enough that a transaction stays a few megabytes (entries are bounded by the frame limit,
    /// but most are one save) and a kill mid-merge redoes little.
    public static let defaultBatchSize = 128

    /// Applies `batch` and records it merged, in one transaction.
    private static func apply(_ batch: [(sequence: UInt64, effect: PendingEffect)], generation: Int64,
                              _ writer: any DatabaseWriter, into report: inout Report) throws {
        guard let last = batch.last else { return }
        let changed = try writer.write { db in
            var changed: Set<String> = []
            for entry in batch {
                if let appID = try entry.effect.apply(db) { changed.insert(appID) }
            }
            try PendingJournalKeys.recordApplied(db, generation: generation, through: last.sequence)
            return changed
        }
        report.merged += batch.count
        report.backgroundDeliveryApps.formUnion(changed)
    }
}
